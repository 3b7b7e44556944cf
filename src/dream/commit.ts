import fs from 'node:fs';
import path from 'node:path';
import { findGitRoot } from '../store/git-root.js';
import { lazyRequire } from '../core/lazy.js';

/** `--commit`: commit exactly the files the run changed, with its report as the message; the commit's hash. */
export async function commitDream(dir: string, changed: string[], reportFile: string): Promise<string | null> {
  const root = findGitRoot(dir);
  if (!root) return null;
  const { simpleGit } = lazyRequire<typeof import('simple-git')>('simple-git');
  const git = simpleGit(root);
  const paths = changed.map((file) => path.relative(root, path.join(path.resolve(dir), file)));
  await git.raw(['add', '-A', '--', ...paths]);
  const done = await git.commit(fs.readFileSync(reportFile, 'utf8'), paths);
  return done.commit || null;
}
