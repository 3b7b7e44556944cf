import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';

/** A real git repository with one commit, at `dir`. */
export async function createRepo(dir: string): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  const git = simpleGit(dir);
  await git.init();
  await git.addConfig('user.name', 'memdir test');
  await git.addConfig('user.email', 'test@memdir.invalid');
  await git.addConfig('commit.gpgsign', 'false');
  fs.writeFileSync(path.join(dir, 'README.md'), '# test repo\n');
  await git.add('README.md');
  await git.commit('initial');
  return fs.realpathSync(dir);
}

/** A linked worktree of `repo` at `worktreeDir` on a new branch. */
export async function addWorktree(repo: string, worktreeDir: string, branch = `wt-${path.basename(worktreeDir)}`): Promise<string> {
  await simpleGit(repo).raw(['worktree', 'add', '-b', branch, worktreeDir]);
  return fs.realpathSync(worktreeDir);
}
