import fs from 'node:fs';
import path from 'node:path';

/**
 * Nearest directory at or above `start` holding a `.git` directory or file,
 * or null outside git. Plain file-system walk, like Claude Code: no git process.
 */
export function findGitRoot(start: string): string | null {
  let dir = path.resolve(start);
  for (;;) {
    try {
      const stat = fs.statSync(path.join(dir, '.git'));
      if (stat.isDirectory() || stat.isFile()) return dir.normalize('NFC');
    } catch {
      // not here; keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The root shared by every worktree of a repository. From a linked worktree,
 * `.git` is a file naming the worktree's git dir, whose `commondir` names the
 * main `.git`; the canonical root is the directory holding it (or the common
 * dir itself for a bare repository). The back-link check (`gitdir` must point
 * to this worktree) stops a crafted `.git` file from borrowing another
 * repository's memory. Submodules have no `commondir` and keep their own root.
 */
export function canonicalRoot(gitRoot: string): string {
  try {
    const dotGit = fs.readFileSync(path.join(gitRoot, '.git'), 'utf8').trim();
    if (!dotGit.startsWith('gitdir:')) return gitRoot;
    const worktreeGitDir = path.resolve(gitRoot, dotGit.slice('gitdir:'.length).trim());
    const commonDir = path.resolve(worktreeGitDir, fs.readFileSync(path.join(worktreeGitDir, 'commondir'), 'utf8').trim());
    if (path.resolve(path.dirname(worktreeGitDir)) !== path.join(commonDir, 'worktrees')) return gitRoot;
    const backLink = fs.realpathSync(fs.readFileSync(path.join(worktreeGitDir, 'gitdir'), 'utf8').trim());
    if (backLink !== path.join(fs.realpathSync(gitRoot), '.git')) return gitRoot;
    if (path.basename(commonDir) !== '.git') return commonDir.normalize('NFC');
    return path.dirname(commonDir).normalize('NFC');
  } catch {
    return gitRoot;
  }
}

/** The directory whose name keys the memory: canonical git root, else the project root. */
export function memoryProjectRoot(projectRoot: string): string {
  const gitRoot = findGitRoot(projectRoot);
  return gitRoot ? canonicalRoot(gitRoot) : projectRoot;
}
