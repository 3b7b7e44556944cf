import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { sanitizeProjectPath, validateMemoryPath } from '../core/paths.js';
import { absolutePath, requireWorkingDirectory, workingDirectory } from './cwd.js';
import { memoryProjectRoot } from './git-root.js';
import { configHome, homeDir, readSetting, settingsFiles, trustsProjectSettings, type SettingsSource } from './settings.js';

export type ResolutionRule = 'flag' | 'env' | 'setting' | 'default';

export interface ResolveOptions {
  /** `--dir`. */
  dir?: string | undefined;
  /** Where the agent runs (the project root); defaults to process.cwd(). */
  cwd?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  /** Honour `autoMemoryDirectory` in the committed `.claude/settings.json`. */
  trustProjectSettings?: boolean | undefined;
  /** Managed policy settings file (platform default otherwise). */
  managedSettings?: string | undefined;
}

export interface Resolution {
  dir: string;
  rule: ResolutionRule;
  /** Setting source and file when rule is `setting`; env var name when `env`. */
  source?: SettingsSource | 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE';
  file?: string;
  /** Directory whose sanitized name keys the default location (the working directory, unknown when it was deleted and --dir or the env var decided). */
  projectRoot: string | undefined;
  warnings: string[];
}

const OVERRIDE_ENV = 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE';

/** Where the memory directory is, by the rules of docs/architecture.md#directory-resolution (first wins). */
export function resolveMemoryDir(options: ResolveOptions = {}): Resolution {
  const env = options.env ?? process.env;
  // Only what needs the working directory asks for it: an absolute --dir works even when it was deleted.
  const cwd = () => absolutePath(options.cwd ?? requireWorkingDirectory()).normalize('NFC');
  const home = homeDir(env);
  const warnings: string[] = [];
  const base = { warnings, projectRoot: options.cwd === undefined && workingDirectory() === undefined ? undefined : cwd() };

  if (options.dir !== undefined) {
    return { ...base, dir: checked(options.dir, '--dir', { expandTilde: true, home, relativeTo: cwd }), rule: 'flag' };
  }
  const override = env[OVERRIDE_ENV];
  if (override) {
    return { ...base, dir: checked(override, OVERRIDE_ENV, { expandTilde: false, home }), rule: 'env', source: OVERRIDE_ENV };
  }

  const trustProject = trustsProjectSettings(options.trustProjectSettings, env);
  for (const { source, file } of settingsFiles({ projectRoot: cwd(), home, env, managedSettings: options.managedSettings })) {
    const value = readSetting(file, 'autoMemoryDirectory');
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new ConfigError(messages.settingNotString(file));
    if (source === 'project' && !trustProject) {
      warnings.push(messages.untrustedProjectSetting(file, value));
      continue;
    }
    return { ...base, dir: checked(value, file, { expandTilde: true, home }), rule: 'setting', source, file };
  }

  const projectRoot = memoryProjectRoot(cwd());
  const dir = path.join(configHome(env, home), 'projects', sanitizeProjectPath(projectRoot), 'memory').normalize('NFC');
  return { ...base, projectRoot, dir, rule: 'default' };
}

function checked(input: string, origin: string, options: { expandTilde: boolean; home: string; relativeTo?: () => string }): string {
  // --dir is typed by a person in a shell, so a relative path means "from here".
  const candidate = options.relativeTo && !/^~[/\\]/.test(input) && !path.isAbsolute(input) ? path.resolve(options.relativeTo(), input) : input;
  const result = validateMemoryPath(candidate, options);
  if (!result.ok) throw new ConfigError(messages.badMemoryPath(origin, input, result.reason));
  return result.path;
}
