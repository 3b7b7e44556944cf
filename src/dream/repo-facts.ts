import { findGitRoot } from '../store/git-root.js';
import type { RepoFacts } from './phases.js';

/**
 * The project's tracked files and the files its history deleted, for drift
 * (simple-git, loaded only here). Outside git, or on a git failure, undefined:
 * drift is not judged.
 */
export async function readRepoFacts(projectRoot: string | undefined): Promise<RepoFacts | undefined> {
  const root = projectRoot && findGitRoot(projectRoot);
  if (!root) return undefined;
  const { simpleGit } = await import('simple-git');
  const git = simpleGit(root);
  try {
    const files = new Set((await git.raw(['ls-files', '-z'])).split('\0').filter(Boolean));
    const deleted = new Set((await git.raw(['log', '--diff-filter=D', '--name-only', '--format=', '-z'])).split(/[\0\n]/).filter((f) => f && !files.has(f)));
    return { files, deleted };
  } catch {
    return undefined;
  }
}
