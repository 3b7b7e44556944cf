import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { messages } from '../core/messages.js';
import { commitChanges } from '../store/atomic.js';
import { confinedPath } from '../store/confine.js';
import { withDirLock } from '../store/lock.js';
import type { SyncBackend } from './backend.js';
import { keyProblem } from './keys.js';
import { baseState, conflictCopyKey, CONFLICTS_DIR, readBase, shownKey, TEAM_ROOT, type SyncRoot } from './team.js';

export type ResolveSide = 'ours' | 'theirs';

export interface ResolveReport {
  /** The file settled, as reports name it (`team/<key>`). */
  file: string;
  side: ResolveSide;
  /** The conflict copy removed. */
  removed: string;
}

/** The path key FILE names: `team/x.md` as the report prints it, `x.md`, an absolute path, or the conflict copy's path. */
function keyOf(memdir: string, file: string, syncRoot: SyncRoot): string {
  const root = path.join(memdir, syncRoot.dir);
  let key = (path.isAbsolute(file) ? path.relative(root, file) : path.normalize(file)).split(path.sep).join('/');
  if (!path.isAbsolute(file) && syncRoot.dir && key.startsWith(`${syncRoot.dir}/`)) key = key.slice(syncRoot.dir.length + 1);
  if (key.startsWith(`${CONFLICTS_DIR}/`)) key = key.slice(CONFLICTS_DIR.length + 1);
  const problem = keyProblem(key);
  if (problem) throw new UsageError(`sync --resolve: ${file}: ${problem}`);
  return key;
}

/**
 * Settle a conflict sync left: `ours` keeps the local file and counts the remote's version as seen
 * (the next sync pushes the local one); `theirs` puts the remote's version in its place. Either way
 * the conflict copy goes. One transaction under the directory lock (the caller holds the sync lock):
 * the file, the copy's removal and the sync state change together or not at all.
 */
export async function resolveConflict(memdir: string, backend: Pick<SyncBackend, 'remote' | 'hash'>, file: string, side: ResolveSide, syncRoot: SyncRoot = TEAM_ROOT): Promise<ResolveReport> {
  const key = keyOf(memdir, file, syncRoot);
  const root = path.join(memdir, syncRoot.dir);
  const copyKey = conflictCopyKey(key);
  const shown = shownKey(syncRoot, key);
  const shownCopy = shownKey(syncRoot, copyKey);
  return withDirLock(memdir, () => {
    const copyPath = confinedPath(root, copyKey);
    const stat = fs.lstatSync(copyPath, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size > MAX_TOPIC_FILE_BYTES) throw new UsageError(messages.syncNoConflict(shown, shownCopy));
    const theirs = fs.readFileSync(copyPath, 'utf8');
    // The remote's version as of the conflict counts as synced: ours then differs only here (pushed), theirs is equal (nothing to do).
    const base = readBase(memdir, backend.remote);
    base.set(key, backend.hash(theirs));
    const state = baseState(memdir, backend.remote, base);
    commitChanges(memdir, [
      ...(side === 'theirs' ? [{ path: shown, content: theirs }] : []),
      { path: path.relative(memdir, state.file), content: state.text },
      { path: shownCopy, delete: true as const },
    ]);
    // Empty folders of the copies go too; a folder still holding another conflict stays.
    for (let dir = path.dirname(copyPath); dir.startsWith(path.join(root, CONFLICTS_DIR)); dir = path.dirname(dir)) {
      try {
        fs.rmdirSync(dir);
      } catch {
        break;
      }
    }
    return { file: shown, side, removed: shownCopy };
  });
}
