import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { SectionName } from './sections.js';
import { DEFAULT_CONFIG, validateConfig, type ConfigurableRule, type MemdirConfig } from './validate.js';

export const CONFIG_FILE = 'memdir.config.json';

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
}

/**
 * The configuration for a memory directory: `--config FILE`, else
 * memdir.config.json in the directory itself, else the nearest
 * memdir.config.json or package.json "memdir" key from `cwd` upwards.
 * `rules` are the lint rules whose ids, names, tags and options are valid keys; without them
 * (commands other than lint) rule entries are taken as they are and lint checks them.
 */
/** One feature's section of the configuration for a memory directory (empty when there is no file). */
export function configSection<S extends SectionName>(section: S, dir: string, cwd: string | undefined): MemdirConfig[S] {
  return findConfig(dir, cwd ?? dir).config[section];
}

export function findConfig(dir: string, cwd: string, rules?: readonly ConfigurableRule[], explicit?: string): { config: MemdirConfig; file?: string } {
  if (explicit) return { config: validateConfig(readJson(explicit), explicit, rules), file: explicit };
  const found = locateConfig(dir, cwd);
  return found ? { config: validateConfig(found.value, found.origin, rules), file: found.file } : { config: DEFAULT_CONFIG };
}

/** The configuration findConfig would use, read but not validated (so a caller without one need not load the rules). */
export function locateConfig(dir: string, cwd: string): { file: string; origin: string; value: unknown } | undefined {
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
