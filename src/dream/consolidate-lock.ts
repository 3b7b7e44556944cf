import fs from 'node:fs';
import path from 'node:path';
import { IoError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { STATE_DIR } from '../core/taxonomy.js';
import { writeStateFile } from '../store/atomic.js';
import { isAlive } from '../store/lock.js';
import { openWithoutLinks } from '../store/state-path.js';

/**
 * `<memdir>/.consolidate-lock` (docs/architecture.md#dream-pipeline): its mtime is the last
 * consolidation time, its body the PID of a dream running now (empty when
 * none runs). It is taken only when absent, older than an hour, or held by a
 * dead process; written, then read back to confirm the write was ours. A
 * failed run puts the previous mtime back (or removes the file when there was
 * none), so the gate stays due. It is only ever taken before the store's
 * writer lock (.memdir/lock), never while holding it: no deadlock with save
 * or a hook.
 *
 * A run killed before it applied cannot roll the lock back itself: the
 * previous mtime is kept in TAKEN_RECORD before the lock is taken, and the
 * record is deleted in the same transaction that applies the run. A record
 * left with a dead (or stale) holder is a run that never applied: its
 * previous time counts as the last consolidation.
 */
export const CONSOLIDATE_LOCK = '.consolidate-lock';
/** Relative to the memory directory. */
const TAKEN_NAME = 'consolidate-lock.json';
export const TAKEN_RECORD = path.join(STATE_DIR, TAKEN_NAME);
const STALE_MS = 60 * 60 * 1000;

interface TakenRecord {
  pid: number;
  previousMtimeMs: number | null;
}

export interface ConsolidationLock {
  file: string;
  /** The mtime before this run took it; undefined when there was no file. */
  previousMtimeMs: number | undefined;
  takenAt: Date;
}

function readTaken(dir: string): TakenRecord | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(dir, TAKEN_RECORD), 'utf8')) as TakenRecord;
    return Number.isInteger(record.pid) && (record.previousMtimeMs === null || typeof record.previousMtimeMs === 'number') ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The last consolidation time (the lock file's mtime), or undefined when there was none; when the
 * lock is held by a run that died before it applied, the time before that run.
 */
export function lastConsolidation(dir: string, at: Date): Date | undefined {
  let mtime: Date;
  try {
    mtime = fs.statSync(path.join(dir, CONSOLIDATE_LOCK)).mtime;
  } catch {
    return undefined;
  }
  const taken = readTaken(dir);
  if (!taken || readBody(path.join(dir, CONSOLIDATE_LOCK)) !== String(taken.pid) || lockHolder(dir, at) !== undefined) return mtime;
  return taken.previousMtimeMs === null ? undefined : new Date(taken.previousMtimeMs);
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
  const previousMtimeMs = lastConsolidation(dir, at)?.getTime();
  const body = String(process.pid);
  writeStateFile(dir, TAKEN_NAME, JSON.stringify({ pid: process.pid, previousMtimeMs: previousMtimeMs ?? null } satisfies TakenRecord));
  setLock(file, body, at);
  // Two dreams may both have seen the lock free: the last write wins, and the other sees it.
  if (fs.readFileSync(file, 'utf8') !== body) return undefined;
  return { file, previousMtimeMs, takenAt: at };
}

/** A finished run: the mtime stays the time it started, the body is cleared (no one holds it). */
export function releaseConsolidationLock(lock: ConsolidationLock): void {
  forgetTaken(lock);
  if (readBody(lock.file) !== String(process.pid)) return;
  setLock(lock.file, '', lock.takenAt);
}

/** A failed run: the previous consolidation time comes back, as if it had not started. */
export function rollBackConsolidationLock(lock: ConsolidationLock): void {
  forgetTaken(lock);
  if (readBody(lock.file) !== String(process.pid)) return;
  if (lock.previousMtimeMs === undefined) {
    fs.rmSync(lock.file, { force: true });
    return;
  }
  setLock(lock.file, '', new Date(lock.previousMtimeMs));
}

/** The lock file's own stat (undefined when absent); a link in its place is refused. */
export function consolidationLockStat(dir: string): fs.Stats | undefined {
  const file = path.join(dir, CONSOLIDATE_LOCK);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return undefined;
  }
  if (stat.isSymbolicLink()) throw new IoError(messages.stateLink(file));
  return stat;
}

/** The consolidation time put back by an undo (none: the lock goes); its body, a running dream's PID, kept. */
export function setConsolidationTime(dir: string, ms: number | null): void {
  if (!consolidationLockStat(dir)) return;
  const file = path.join(dir, CONSOLIDATE_LOCK);
  if (ms === null) fs.rmSync(file, { force: true });
  else fs.utimesSync(file, new Date(ms), new Date(ms));
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

/** The run ended (or applied): its record is no longer needed to roll the lock back. */
function forgetTaken(lock: ConsolidationLock): void {
  const dir = path.dirname(lock.file);
  if (readTaken(dir)?.pid === process.pid) fs.rmSync(path.join(dir, TAKEN_RECORD), { force: true });
}

function readBody(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
