import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { doctorText as text, type Finding } from '../core/doctor-findings.js';
import { MemdirError } from '../core/errors.js';
import { sanitizeProjectPath, validateMemoryPath } from '../core/paths.js';
import { CHECKED_RELEASES } from '../core/load-model.js';
import { describeResolution } from '../store/describe.js';
import { memoryProjectRoot } from '../store/git-root.js';
import { resolveMemoryDir, type Resolution } from '../store/resolve.js';
import { configHome, homeDir, settingsFiles } from '../store/settings.js';

const KEY = 'autoMemoryDirectory';
/** Real settings that look like the key: never called a typo. */
const REAL_KEYS = new Set([KEY, 'autoMemoryEnabled']);
/** Findings of a settings file memdir's resolver refuses where Claude Code skips it. */
const REFUSED_SETTING = new Set(['relative-setting', 'invalid-setting', 'settings-unreadable']);
/** How long `claude --version` may take. */
const VERSION_TIMEOUT_MS = 5000;

export interface WhereOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  dir?: string | undefined;
  trustProjectSettings?: boolean | undefined;
  managedSettings?: string | undefined;
}

export interface WhereAnswer {
  dir: string;
  projectRoot: string;
  findings: Finding[];
}

/** Where the memory is and why, and every setting that looks meant but is ignored, each with its fix. */
export function whereAndWhy(options: WhereOptions): WhereAnswer {
  const findings: Finding[] = [];
  const home = homeDir(options.env);
  const projectRoot = memoryProjectRoot(options.cwd);
  for (const { source, file } of settingsFiles({ projectRoot: options.cwd, home, env: options.env, managedSettings: options.managedSettings })) {
    const parsed = readSettings(file);
    if (parsed === undefined) continue;
    if (typeof parsed === 'string') {
      findings.push({ id: 'settings-unreadable', severity: 'error', message: text.settingsUnreadable(file, parsed), evidence: { file }, fix: text.fixSettingsFile(file) });
      continue;
    }
    for (const key of Object.keys(parsed)) {
      if (!REAL_KEYS.has(key) && looksLikeKey(key)) {
        findings.push({
          id: 'misspelled-setting',
          severity: 'warning',
          message: text.misspelledSetting(file, key),
          evidence: { file, key, value: parsed[key] },
          fix: text.fixMisspelledSetting(file, key),
        });
      }
    }
    const value = parsed[KEY];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      findings.push({ id: 'invalid-setting', severity: 'warning', message: text.settingNotString(file), evidence: { file, value }, fix: text.fixRelativeSetting(file) });
      continue;
    }
    const valid = validateMemoryPath(value, { expandTilde: true, home });
    if (!valid.ok) {
      const relative = !path.isAbsolute(value) && !/^~[/\\]/.test(value);
      findings.push({
        id: relative ? 'relative-setting' : 'invalid-setting',
        severity: 'warning',
        message: relative ? text.relativeSetting(file, value) : text.invalidSetting(file, value, valid.reason),
        evidence: { file, source, value },
        fix: text.fixRelativeSetting(file),
      });
      continue;
    }
    if (source === 'project' && !options.trustProjectSettings) {
      findings.push({
        id: 'committed-setting',
        severity: 'warning',
        message: text.committedSetting(file, value),
        evidence: { file, value, claudeCodeUses: valid.path },
        fix: text.fixCommittedSetting(),
      });
    }
  }

  let resolution: Resolution;
  try {
    resolution = resolveMemoryDir({ dir: options.dir, cwd: options.cwd, env: options.env, trustProjectSettings: options.trustProjectSettings, managedSettings: options.managedSettings });
  } catch (error) {
    // A setting memdir refuses (already reported above) is one Claude Code skips: the default applies.
    const settingRefused = options.dir === undefined && !options.env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE && findings.some((f) => REFUSED_SETTING.has(f.id));
    if (!(error instanceof MemdirError) || !settingRefused) throw error;
    const dir = path.join(configHome(options.env, home), 'projects', sanitizeProjectPath(projectRoot), 'memory').normalize('NFC');
    resolution = { dir, rule: 'default', projectRoot, warnings: [] };
  }
  const described = describeResolution(resolution);
  findings.unshift({
    id: 'memory-directory',
    severity: 'info',
    message: described.exists ? text.directory(described.dir, described.how) : text.directoryMissing(described.dir),
    evidence: { dir: described.dir, rule: described.rule, source: described.source, file: described.file, projectRoot },
    fix: null,
  });
  return { dir: resolution.dir, projectRoot, findings };
}

/** The settings object, a sentence when the file is not one, undefined when there is no file. */
function readSettings(file: string): Record<string, unknown> | string | undefined {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed: unknown = raw.trim() === '' ? {} : JSON.parse(raw.replace(/^\uFEFF/, ''));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'not a JSON object';
    return parsed as Record<string, unknown>;
  } catch (error) {
    return (error as Error).message;
  }
}

/** `autoMemoryDir`, `automemoryDirectory`, `auto_memory_directory`, `memoryDirectory`: a key meant as autoMemoryDirectory. */
function looksLikeKey(key: string): boolean {
  const folded = key.toLowerCase().replace(/[^a-z]/g, '');
  if (folded === KEY.toLowerCase()) return true;
  if (/^(auto)?memory(dir|directory|path|folder)$/.test(folded)) return true;
  return editDistance(folded, KEY.toLowerCase()) <= 2;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The `claude` on PATH and its version, asked with a time limit; nothing when it is not installed. */
export function claudeVersion(env: NodeJS.ProcessEnv): Finding {
  const file = onPath('claude', env.PATH ?? '');
  if (!file) return { id: 'claude-code', severity: 'info', message: text.claudeMissing(), evidence: { path: null, version: null }, fix: null };
  const run = spawnSync(file, ['--version'], { env, encoding: 'utf8', timeout: VERSION_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  const version = /\d+\.\d+\.\d+\S*/.exec(run.stdout ?? '')?.[0];
  if (run.error || !version) {
    const problem = run.error ? ((run.error as NodeJS.ErrnoException).code ?? run.error.message) : (run.stderr || run.stdout || `exit ${run.status}`).trim().split('\n')[0]!;
    return { id: 'claude-code', severity: 'info', message: text.claudeNoVersion(file, problem), evidence: { path: file, version: null }, fix: null };
  }
  const checked = CHECKED_RELEASES.includes(version as (typeof CHECKED_RELEASES)[number]) ? 'checked' : compareVersions(version, CHECKED_RELEASES[0]) < 0 ? 'older' : 'newer';
  return {
    id: 'claude-code',
    severity: checked === 'older' ? 'warning' : 'info',
    message: text.claudeVersion(version, file, checked, CHECKED_RELEASES),
    evidence: { path: file, version, checkedReleases: [...CHECKED_RELEASES] },
    fix: checked === 'older' ? 'npm i -g @anthropic-ai/claude-code@latest' : null,
  };
}

/** Dotted release numbers compared part by part (a pre-release suffix is ignored). */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[-+]/)[0]!.split('.').map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

function onPath(name: string, searchPath: string): string | undefined {
  for (const folder of searchPath.split(path.delimiter)) {
    if (!folder) continue;
    const candidate = path.join(folder, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}
