/**
 * Every folder the memory directory can be in, found without resolving it: what `resolveMemoryDir`
 * (resolve.ts) can answer, short of the git root the default location is named after. The guard
 * lets a write outside all of them through without resolving anything (docs/hooks.md#guard).
 * Imports nothing that reports: whatever it cannot read simply, it leaves to `resolveMemoryDir`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { validateMemoryPath } from '../core/paths.js';
import { configHome, homeDir, settingsFiles } from './settings.js';

export interface BoundsOptions {
  /** `--dir`. */
  dir?: string | undefined;
  /** The session's working directory, absolute. */
  cwd: string;
  env?: NodeJS.ProcessEnv | undefined;
}

/** A settings file's `autoMemoryDirectory` as `readSetting` reads it; null when absent; undefined when it cannot be read simply. */
function settingValue(file: string): string | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null; // readSetting: an unreadable file sets nothing
  }
  if (text.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const value = (parsed as Record<string, unknown>).autoMemoryDirectory;
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The folders the memory directory is one of or inside, absolute: `--dir`, else the override
 * variable, else every settings file's `autoMemoryDirectory` (trusted or not, first or not: a
 * superset) and `<config home>/projects` (the default is a folder of it, whatever the git root).
 * Undefined when something is not plainly valid (a settings file that is not JSON, a bad path):
 * resolving is then the way to the error it reports.
 */
export function memoryDirBounds(options: BoundsOptions): string[] | undefined {
  const env = options.env ?? process.env;
  const home = homeDir(env);
  const valid = (input: string, expandTilde: boolean) => {
    const result = validateMemoryPath(input, { expandTilde, home });
    return result.ok ? path.resolve(result.path) : undefined;
  };
  if (options.dir !== undefined) {
    const given = /^~[/\\]/.test(options.dir) || path.isAbsolute(options.dir) ? options.dir : path.resolve(options.cwd, options.dir);
    const dir = valid(given, true);
    return dir === undefined ? undefined : [dir];
  }
  const override = env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE;
  if (override) {
    const dir = valid(override, false);
    return dir === undefined ? undefined : [dir];
  }
  const folders = [path.resolve(configHome(env, home), 'projects')];
  for (const { file } of settingsFiles({ projectRoot: options.cwd, home, env })) {
    const value = settingValue(file);
    if (value === null) continue;
    const dir = value === undefined ? undefined : valid(value, true);
    if (dir === undefined) return undefined;
    folders.push(dir);
  }
  return folders;
}
