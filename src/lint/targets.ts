import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { lazyRequire } from '../core/lazy.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { findGitRoot } from '../store/git-root.js';
import { isMemoryDirectory, type LintTarget } from './run.js';
import { messages } from '../core/messages.js';

/** `memdir lint PATH…`: directories are memory directories; a file is linted within its directory. */
export function pathTargets(paths: string[], cwd: string): LintTarget[] {
  const targets = new Map<string, LintTarget>();
  for (const input of paths) {
    const absolute = path.resolve(cwd, input);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absolute);
    } catch {
      throw new UsageError(messages.noSuchPath(input));
    }
    if (stat.isDirectory()) {
      if (!isMemoryDirectory(absolute)) throw new UsageError(messages.notMemoryDirectory(input));
      targets.set(absolute, { dir: absolute });
      continue;
    }
    const dir = path.dirname(absolute);
    const existing = targets.get(dir);
    if (existing && !existing.only) continue; // the whole directory is already linted
    const only = existing?.only ?? new Set<string>();
    only.add(path.basename(absolute));
    targets.set(dir, { dir, only });
  }
  return [...targets.values()];
}

/** Every `.claude/memory/` folder committed inside the repository around `cwd`. */
export function repoTargets(cwd: string): LintTarget[] {
  const root = findGitRoot(cwd);
  if (!root) throw new UsageError(messages.notInGitRepository('--all-in-repo'));
  const fg = lazyRequire<typeof import('fast-glob')>('fast-glob'); // only --all-in-repo needs it
  return fg.sync('**/.claude/memory', { cwd: root, dot: true, onlyDirectories: true, ignore: ['**/node_modules/**', '.git/**'], suppressErrors: true }).map((rel) => ({ dir: path.join(root, rel) }));
}

/**
 * `--staged`: memory files staged in git, linted as staged (the blob in the
 * index, not the working tree), within the memory directory they belong to.
 */
export async function stagedTargets(cwd: string, resolvedDir: string | undefined): Promise<LintTarget[]> {
  const { simpleGit } = lazyRequire<typeof import('simple-git')>('simple-git');
  const git = simpleGit(cwd);
  let root: string;
  try {
    root = (await git.revparse(['--show-toplevel'])).trim();
  } catch {
    throw new UsageError(messages.notInGitRepository('--staged'));
  }
  const staged = (await git.raw(['diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z'])).split('\0').filter((f) => f.endsWith('.md'));
  const tracked = new Set((await git.raw(['ls-files', '-z'])).split('\0'));
  const memoryDirOf = (file: string): string | undefined => {
    const absolute = path.join(root, file);
    if (resolvedDir && absolute.startsWith(`${resolvedDir}${path.sep}`)) return resolvedDir;
    for (let dir = path.posix.dirname(file); dir !== '.' && dir !== '/'; dir = path.posix.dirname(dir)) {
      if (dir.endsWith('.claude/memory') || tracked.has(`${dir}/${INDEX_FILE}`)) return path.join(root, dir);
    }
    return undefined;
  };
  const targets = new Map<string, LintTarget & { only: Set<string>; overlay: Map<string, string> }>();
  for (const file of staged) {
    const dir = memoryDirOf(file);
    if (!dir) continue;
    const rel = path.relative(dir, path.join(root, file)).split(path.sep).join('/');
    const target = targets.get(dir) ?? { dir, only: new Set<string>(), overlay: new Map<string, string>() };
    target.only.add(rel);
    target.overlay.set(rel, await git.show([`:${file}`]));
    targets.set(dir, target);
  }
  return [...targets.values()];
}
