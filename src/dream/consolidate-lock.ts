import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from '../store/lock.js';
import { openWithoutLinks } from '../store/state-path.js';

/**
 * `<memdir>/.consolidate-lock` (DESIGN §2.5): its mtime is the last
 * consolidation time, its body the PID of a dream running now (empty when
 * none runs). It is taken only when absent, older than an hour, or held by a
 * dead process; written, then read back to confirm the write was ours. A
 * failed run puts the previous mtime back (or removes the file when there was
 * none), so the gate stays due. It is only ever taken before the store's
 * writer lock (.memdir/lock), never while holding it: no deadlock with save
 * or a hook.
 */
export const CONSOLIDATE_LOCK = '.consolidate-lock';
const STALE_MS = 60 * 60 * 1000;

export interface ConsolidationLock {
  file: string;
  /** The mtime before this run took it; undefined when there was no file. */
  previousMtimeMs: number | undefined;
  takenAt: Date;
}

/** The last consolidation time (the lock file's mtime), or undefined when there was none. */
export function lastConsolidation(dir: string): Date | undefined {
  try {
    return fs.statSync(path.join(dir, CONSOLIDATE_LOCK)).mtime;
  } catch {
    return undefined;
  }
}

/** The PID of the dream holding the lock now, if any (a live process, within the hour). */
export function lockHolder(dir: string, at: Date): number | undefined {
  const file = path.join(dir, CONSOLIDATE_LOCK);
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    const { mtimeMs } = fs.statSync(file);
    return Number.isInteger(pid) && pid > 0 && at.getTime() - mtimeMs < STALE_MS && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Take the lock at `at`, or undefined when another dream holds it. */
export function takeConsolidationLock(dir: string, at: Date): ConsolidationLock | undefined {
  const file = path.join(dir, CONSOLIDATE_LOCK);
  if (lockHolder(dir, at) !== undefined) return undefined;
  const previousMtimeMs = lastConsolidation(dir)?.getTime();
  const body = String(process.pid);
  setLock(file, body, at);
  // Two dreams may both have seen the lock free: the last write wins, and the other sees it.
  if (fs.readFileSync(file, 'utf8') !== body) return undefined;
  return { file, previousMtimeMs, takenAt: at };
}

/** A finished run: the mtime stays the time it started, the body is cleared (no one holds it). */
export function releaseConsolidationLock(lock: ConsolidationLock): void {
  if (readBody(lock.file) !== String(process.pid)) return;
  setLock(lock.file, '', lock.takenAt);
}

/** A failed run: the previous consolidation time comes back, as if it had not started. */
export function rollBackConsolidationLock(lock: ConsolidationLock): void {
  if (readBody(lock.file) !== String(process.pid)) return;
  if (lock.previousMtimeMs === undefined) {
    fs.rmSync(lock.file, { force: true });
    return;
  }
  setLock(lock.file, '', new Date(lock.previousMtimeMs));
}

/** The lock's body and mtime, never written through a symlink planted in its place. */
function setLock(file: string, body: string, mtime: Date): void {
  const fd = openWithoutLinks(file, 'replace');
  try {
    fs.writeFileSync(fd, body);
    fs.futimesSync(fd, mtime, mtime);
  } finally {
    fs.closeSync(fd);
  }
}

function readBody(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
