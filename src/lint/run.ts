import fs from 'node:fs';
import { settleDirectory, withDirLock } from '../store/lock.js';
import { commitChanges } from '../store/atomic.js';
import { redactSecrets } from '../core/secrets.js';
import type { LintConfig } from '../config/validate.js';
import { ruleSetting } from './settings.js';
import { fixDirectory, lintDirectory } from './engine.js';
import { readMemoryDir } from '../store/dir-reader.js';
import { RULES } from './rules/index.js';
import type { RawDirectory } from '../core/dir-model.js';
import type { Finding, RuleNeed } from './types.js';
import { lazyRequire } from '../core/lazy.js';

export interface LintTarget {
  /** Memory directory (absolute). */
  dir: string;
  /** Report only these files (relative to dir); all when absent. */
  only?: Set<string>;
  /** Content to lint instead of the working tree (staged blobs), relative path → text. */
  overlay?: Map<string, string>;
}

export interface LintResult {
  dir: string;
  findings: Finding[];
  /** Files --fix changed (relative to dir). */
  fixed: string[];
  /** Unified diffs of what --fix-dry-run would change. */
  diffs: string[];
}

export interface LintRunOptions {
  config: (dir: string) => LintConfig;
  fix?: boolean;
  dryRun?: boolean;
}

function withOverlay(raw: RawDirectory, overlay: Map<string, string> | undefined): RawDirectory {
  if (!overlay) return raw;
  const files = new Map(raw.files);
  const present = new Set(raw.present);
  for (const [file, text] of overlay) {
    files.set(file, { text, mtimeMs: raw.files.get(file)?.mtimeMs ?? Date.now() });
    present.add(file);
  }
  return { ...raw, files, present };
}

function changedFiles(before: RawDirectory, after: RawDirectory): Array<{ path: string; before: string; after: string }> {
  const changes = [];
  for (const [file, { text }] of after.files) {
    const old = before.files.get(file)?.text;
    if (old !== text) changes.push({ path: file, before: old ?? '', after: text });
  }
  return changes;
}

async function readTarget(target: LintTarget, config: LintConfig): Promise<{ raw: RawDirectory; nested: string[] }> {
  const needed = (need: RuleNeed) => RULES.some((rule) => rule.needs?.includes(need) && ruleSetting(rule, config) !== 'off');
  const { raw, nested } = await readMemoryDir(target.dir, { ignore: config.ignore, git: { repoFiles: needed('repoFiles'), commitTimes: needed('commitTimes') } });
  return { raw: withOverlay(raw, target.overlay), nested };
}

async function lintOne(target: LintTarget, options: LintRunOptions): Promise<LintResult[]> {
  const config = options.config(target.dir);
  const keep = (f: Finding) => !target.only || target.only.has(f.file);
  let nested: string[] = [];

  const fixTarget = async (write: boolean): Promise<LintResult & { changed: number }> => {
    const read = await readTarget(target, config);
    nested = read.nested;
    const fixed = fixDirectory(read.raw, config);
    const changes = changedFiles(read.raw, fixed.raw);
    const { createTwoFilesPatch } = lazyRequire<typeof import('diff')>('diff');
    // A diff is printed: secrets in the changed files are redacted in it.
    const diffs = changes.map((c) => createTwoFilesPatch(`a/${c.path}`, `b/${c.path}`, redactSecrets(c.before), redactSecrets(c.after)));
    if (write && changes.length > 0)
      commitChanges(
        target.dir,
        changes.map((c) => ({ path: c.path, content: c.after })),
      );
    return { dir: target.dir, findings: fixed.findings.filter(keep), fixed: write ? changes.map((c) => c.path) : [], diffs, changed: changes.length };
  };

  let result: LintResult;
  if (options.fix && !target.overlay) {
    // Plan without the lock; only when there is something to write, read, fix and write again
    // under it (so no other writer slips in between). Nothing to write: no lock, no `.memdir/`.
    const planned = await fixTarget(false);
    result = options.dryRun || planned.changed === 0 ? planned : await withDirLock(target.dir, () => fixTarget(true));
  } else {
    const read = await readTarget(target, config);
    nested = read.nested;
    result = { dir: target.dir, findings: lintDirectory(read.raw, config).filter(keep), fixed: [], diffs: [] };
  }
  const inner = target.only ? [] : await Promise.all(nested.map((dir) => lintOne({ dir }, options)));
  return [result, ...inner.flat()];
}

/** Lint (and optionally fix) memory directories. */
export async function runLint(targets: LintTarget[], options: LintRunOptions): Promise<LintResult[]> {
  const results: LintResult[] = [];
  for (const target of targets) {
    if (!fs.existsSync(target.dir)) continue;
    if (!target.overlay) await settleDirectory(target.dir);
    results.push(...(await lintOne(target, options)));
  }
  return results;
}

/** A directory is a memory directory when it holds MEMORY.md or Markdown topic files. */
export function isMemoryDirectory(dir: string): boolean {
  try {
    return fs.readdirSync(dir).some((name) => name.endsWith('.md'));
  } catch {
    return false;
  }
}
