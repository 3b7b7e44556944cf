import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { homeDir, trustsProjectSettings } from '../store/settings.js';
import { RULE_CATALOG } from './rule-catalog.js';
import { mergeConfigValues, sectionSettings, withoutUserKeys, type SectionName, type SectionSettings, type SectionValues } from './sections.js';
import { validateConfig, type MemdirConfig } from './validate.js';

export const CONFIG_FILE = 'memdir.config.json';

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(messages.configNotJson(file, (error as Error).message));
  }
}

/** The user-level config, read by every command: `$XDG_CONFIG_HOME/memdir/config.json`, else `~/.config/memdir/config.json`. */
export function userConfigFile(env: NodeJS.ProcessEnv, home: string): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(base, 'memdir', 'config.json');
}

const real = (file: string) => {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
};

/**
 * Whose a config file is, the one place that decides it. The user's: a file named on the command
 * line, or the user-level config. Any other file came with a project or was written where an agent
 * writes (a memory directory, also the default one under `~/.claude`): it may tune rules and
 * thresholds, never choose what runs or where data goes. Judged by real path, so a link cannot
 * lend a file trust.
 */
export function configOwner(file: string, named: boolean, env: NodeJS.ProcessEnv, home: string): 'user' | 'project' {
  return named || real(file) === real(userConfigFile(env, home)) ? 'user' : 'project';
}

export interface ConfigSource {
  file: string;
  /** How errors and warnings name it (`package.json "memdir"` for the key). */
  origin: string;
  value: unknown;
  owner: 'user' | 'project';
}

export interface ConfigRequest {
  /** The memory directory (its own memdir.config.json comes first). */
  dir: string;
  /** Where the nearest memdir.config.json or package.json "memdir" is looked for, upwards (default: `dir`). */
  cwd?: string | undefined;
  /** `--config FILE`: used instead of the file found. */
  explicit?: string | undefined;
  /** `--trust-project-settings` (MEMDIR_TRUST_PROJECT_SETTINGS=1 otherwise). */
  trustProjectSettings?: boolean | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * The config files that apply, read but not validated, lowest first: the user-level config, then
 * `--config FILE`, else memdir.config.json in the memory directory, else the nearest
 * memdir.config.json or package.json "memdir" key from `cwd` up to the repository root.
 */
export function configSources(request: ConfigRequest): ConfigSource[] {
  const env = request.env ?? process.env;
  const home = homeDir(env);
  const sources: ConfigSource[] = [];
  const user = userConfigFile(env, home);
  if (fs.existsSync(user)) sources.push({ file: user, origin: user, value: readJson(user), owner: configOwner(user, false, env, home) });
  const found = request.explicit ? { file: request.explicit, origin: request.explicit, value: readJson(request.explicit) } : locate(request.dir, request.cwd ?? request.dir);
  if (found) sources.push({ ...found, owner: configOwner(found.file, request.explicit !== undefined, env, home) });
  return sources;
}

function locate(dir: string, cwd: string): Omit<ConfigSource, 'owner'> | undefined {
  const inDir = path.join(dir, CONFIG_FILE);
  if (fs.existsSync(inDir)) return { file: inDir, origin: inDir, value: readJson(inDir) };
  for (let current = path.resolve(cwd); ; current = path.dirname(current)) {
    const candidate = path.join(current, CONFIG_FILE);
    if (fs.existsSync(candidate)) return { file: candidate, origin: candidate, value: readJson(candidate) };
    const pkg = path.join(current, 'package.json');
    if (fs.existsSync(pkg)) {
      const json = readJson(pkg) as Record<string, unknown>;
      if (json && typeof json === 'object' && 'memdir' in json) return { file: pkg, origin: `${pkg} "memdir"`, value: json.memdir };
    }
    if (fs.existsSync(path.join(current, '.git')) || path.dirname(current) === current) return undefined;
  }
}

export interface LoadedConfig {
  config: MemdirConfig;
  /** The files it came from, lowest first; empty when there are none. */
  files: string[];
  /** One line per project file whose user-only keys were ignored (only keys of the sections asked for). */
  warnings: string[];
}

/**
 * The configuration, loaded the same way by every command and hook: each source validated whole
 * (rule names and options, sections, keys; errors name its file), a project file's user-only keys
 * dropped unless the user trusts project settings, then merged — a key the project file sets wins
 * over the user-level one. `sections` are the ones the caller reads: a dropped key warns only
 * there, where it would have acted.
 */
export function loadConfig(request: ConfigRequest & { sections: readonly SectionName[] }, sources: ConfigSource[] = configSources(request)): LoadedConfig {
  const trusted = trustsProjectSettings(request.trustProjectSettings, request.env ?? process.env);
  const warnings: string[] = [];
  let merged: Record<string, unknown> = {};
  for (const source of sources) {
    validateConfig(source.value, source.origin, RULE_CATALOG);
    let value = source.value as Record<string, unknown>;
    if (source.owner === 'project' && !trusted) {
      const kept = withoutUserKeys(value);
      const acted = kept.dropped.filter((key) => request.sections.some((section) => key.startsWith(`${section}.`)));
      if (acted.length > 0) warnings.push(messages.untrustedConfigKeys(source.origin, acted));
      value = kept.value;
    }
    merged = mergeConfigValues(merged, value);
  }
  // Each part passed on its own, so the merge does too.
  return { config: validateConfig(merged, sources.at(-1)?.origin ?? CONFIG_FILE, RULE_CATALOG), files: sources.map((s) => s.file), warnings };
}

/** One feature's section as it runs: what the files set, else each field's default; warnings go to `warn`. */
export function configSection<S extends SectionName>(section: S, request: ConfigRequest, warn: (message: string) => void): SectionSettings<S> {
  const loaded = loadConfig({ ...request, sections: [section] });
  for (const warning of loaded.warnings) warn(warning);
  return sectionSettings(section, loaded.config[section] as SectionValues<S>);
}
