import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import { lazyRequire } from '../core/lazy.js';
import { messages } from '../core/messages.js';

/** Claude Code settings files memdir reads, in the order they are trusted. */
export type SettingsSource = 'policy' | 'local' | 'project' | 'user';

export interface SettingsFile {
  source: SettingsSource;
  file: string;
}

export function managedSettingsPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

export function configHome(env: NodeJS.ProcessEnv, home: string): string {
  return (env.CLAUDE_CONFIG_DIR || path.join(home, '.claude')).normalize('NFC');
}

/** Whether the project's committed settings are trusted: `--trust-project-settings` when given, else MEMDIR_TRUST_PROJECT_SETTINGS=1. */
export function trustsProjectSettings(flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  return flag ?? env.MEMDIR_TRUST_PROJECT_SETTINGS === '1';
}

/** The settings files that can set `autoMemoryDirectory`, first wins. */
export function settingsFiles(options: { projectRoot: string; home: string; env: NodeJS.ProcessEnv; managedSettings?: string }): SettingsFile[] {
  return [
    { source: 'policy', file: options.managedSettings ?? managedSettingsPath() },
    { source: 'local', file: path.join(options.projectRoot, '.claude', 'settings.local.json') },
    { source: 'project', file: path.join(options.projectRoot, '.claude', 'settings.json') },
    { source: 'user', file: path.join(configHome(options.env, options.home), 'settings.json') },
  ];
}

/**
 * One key of a settings file; undefined when the file or key is absent. A
 * file that exists but is not JSON is a configuration error: guessing past it
 * could put memory somewhere the user did not choose.
 */
export function readSetting(file: string, key: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ConfigError(messages.settingsNotJson(file, (error as Error).message), { hint: messages.fixOrRemoveFile() });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(messages.settingsNotObject(file));
  }
  return (parsed as Record<string, unknown>)[key];
}

export function homeDir(env: NodeJS.ProcessEnv): string {
  // node:os only when HOME is unset: loading it costs every hook start.
  return env.HOME || lazyRequire<typeof import('node:os')>('node:os').homedir();
}
