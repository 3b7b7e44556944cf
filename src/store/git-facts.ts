import path from 'node:path';
import { findGitRoot } from './git-root.js';
import { lazyRequire } from '../core/lazy.js';

/** What git knows about a memory directory: tracked files of the repository, last commit time of clean files. */
export interface GitFacts {
  repoFiles: Set<string>;
  /** Relative to the memory directory → ms since epoch of the last commit touching it (clean files only). */
  commitTimes: Map<string, number>;
  /** `git config user.email`: the user's own address is not third-party personal data. */
  userEmail?: string;
}

const NONE: GitFacts = { repoFiles: new Set(), commitTimes: new Map() };

/** Read with real git (simple-git, loaded only here); outside git, or on any git failure, nothing is known. */
export async function gitFacts(dir: string, wanted: { repoFiles: boolean; commitTimes: boolean }): Promise<GitFacts> {
  const root = findGitRoot(dir);
  if (!root || (!wanted.repoFiles && !wanted.commitTimes)) return NONE;
  const { simpleGit } = lazyRequire<typeof import('simple-git')>('simple-git');
  const git = simpleGit(root);
  const facts: GitFacts = { repoFiles: new Set(), commitTimes: new Map() };
  try {
    if (wanted.repoFiles) {
      for (const file of (await git.raw(['ls-files', '-z'])).split('\0')) if (file) facts.repoFiles.add(file);
      facts.userEmail = (await git.raw(['config', '--default', '', 'user.email'])).trim() || undefined;
    }
    if (wanted.commitTimes) {
      const relDir = path.relative(root, dir) || '.';
      const dirty = new Set(
        (await git.raw(['status', '--porcelain', '-z', '--', relDir]))
          .split('\0')
          .filter(Boolean)
          .map((entry) => entry.slice(3)),
      );
      const log = await git.raw(['log', '--format=%x01%ct', '--name-only', '--', relDir]);
      let time = 0;
      for (const line of log.split('\n')) {
        if (line.startsWith('\u0001')) time = Number(line.slice(1)) * 1000;
        else if (line && !dirty.has(line)) {
          const rel = path.relative(dir, path.join(root, line)).split(path.sep).join('/');
          if (!facts.commitTimes.has(rel)) facts.commitTimes.set(rel, time);
        }
      }
    }
  } catch {
    return NONE;
  }
  return facts;
}
