import fs from 'node:fs';
import { writeFileAtomic } from '../store/atomic.js';
import { checkStatePath } from '../store/state-path.js';
import { fingerprintOf, privateRepo, recordPath, trackedCommit, type NoChangeRecord } from './no-change.js';

/** After a plain sync that found nothing to do (and saw no file move while it ran): remember it. Otherwise forget. */
export function recordNoChange(memdir: string, record: Omit<NoChangeRecord, 'fingerprint' | 'commit' | 'recordedAt' | 'memdir'> | undefined): void {
  const file = recordPath(memdir);
  const fingerprint = record && fingerprintOf(memdir, record.cwd);
  const commit = record && trackedCommit(privateRepo(memdir), record.branch);
  if (!record || !fingerprint || !commit) {
    fs.rmSync(file, { force: true });
    return;
  }
  writeFileAtomic(checkStatePath(memdir, file), JSON.stringify({ ...record, memdir, fingerprint, commit, recordedAt: Date.now() } satisfies NoChangeRecord));
}
