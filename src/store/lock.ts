import fs from 'node:fs';
import path from 'node:path';
import { IoError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { STATE_DIR } from '../core/taxonomy.js';
import { JOURNAL_FILE, recoverTransaction } from './atomic.js';
import { randomHex } from './random-name.js';
import { sleep } from './sleep.js';
import { statePath } from './state-path.js';
import { lockStaleMs } from './test-hooks.js';

export interface LockOptions {
  /** Give up after this long (ms). */
  timeoutMs?: number;
  /** Where the holder's identity cannot be checked, a lock whose heartbeat is older than this is stale. */
  staleMs?: number;
  /** Another lock of the same kind under `.memdir/` (e.g. `extract/run.lock`); only the directory lock (`lock`) guards writes and recovers transactions. */
  name?: string;
}

/**
 * How long a reader or a hook waits for a busy lock: an agent must never be kept waiting. The
 * recall hook may wait twice (to settle, then to record), so about a second in all.
 */
export const BRIEF_LOCK_WAIT_MS = 500;

/*
 * When is a lock stale? A lock whose process is gone is. A live PID is not
 * enough, because PIDs get reused; nor is a time limit, because a live writer
 * may work for minutes in one synchronous loop (lint --fix, refactor) where no
 * timer fires to refresh the lock. So the lock records its process's start
 * time (from /proc on Linux): a live PID that started at that time is the
 * holder, kept however long it runs; one that started at another time reused
 * the PID. Only where the start time cannot be read does age decide, judged by
 * a heartbeat (the lock file's mtime, touched on a timer while the lock is
 * held), so a holder waiting on I/O keeps its lock there too; there, a single
 * synchronous stretch longer than the stale limit can still lose it.
 *
 * SIGINT and SIGTERM have no handler: Node's default ends the process at once,
 * like kill -9, which the journal already makes safe (old or new state), and
 * the dead PID frees the lock for the next command.
 */
interface LockBody {
  pid: number;
  time: number;
  token: string;
  /**
   * The holder's start time in clock ticks after boot (/proc/PID/stat field 22), null where it
   * cannot be read. Locks of memdir versions before the heartbeat lack it; their time is their age.
   */
  start?: number | null;
}

interface HeldLock {
  text: string;
  body: Partial<LockBody>;
  mtimeMs: number;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function processStart(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses; field 22 is the 20th of them.
    const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

function readLock(file: string): HeldLock | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8');
    const { mtimeMs } = fs.statSync(file);
    try {
      return { text, body: JSON.parse(text) as Partial<LockBody>, mtimeMs };
    } catch {
      return { text, body: {}, mtimeMs };
    }
  } catch {
    return undefined;
  }
}

function isStale(held: HeldLock, staleMs: number): boolean {
  const { pid, start, time } = held.body;
  // A body still being written is not stale; one that stays unreadable is.
  if (typeof pid !== 'number') return Date.now() - held.mtimeMs > 2_000;
  if (!isAlive(pid)) return true;
  const actualStart = typeof start === 'number' ? processStart(pid) : undefined;
  if (actualStart !== undefined) return actualStart !== start;
  const heartbeat = start === undefined && typeof time === 'number' ? time : held.mtimeMs;
  return Date.now() - heartbeat > staleMs;
}

/**
 * Take over a stale lock without stealing a live one: move it aside, check
 * that what was moved is still what was judged stale, and put it back otherwise.
 */
function breakStaleLock(file: string, judged: HeldLock, staleMs: number): void {
  const aside = `${file}.stale-${randomHex(4)}`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return;
  }
  const moved = readLock(aside);
  if (!moved || moved.text !== judged.text || !isStale(moved, staleMs)) {
    try {
      fs.linkSync(aside, file);
    } catch {
      // someone else holds a fresh lock now; theirs wins
    }
  }
  fs.rmSync(aside, { force: true });
}

/** Touch the lock's mtime on a timer while it is held, if it is still ours. */
function startHeartbeat(file: string, token: string, staleMs: number): NodeJS.Timeout {
  const timer = setInterval(
    () => {
      if (readLock(file)?.body.token !== token) return;
      try {
        const now = new Date();
        fs.utimesSync(file, now, now);
      } catch {
        // gone: nothing to keep alive
      }
    },
    Math.max(10, Math.floor(staleMs / 4)),
  );
  return timer.unref();
}

/** The directory's `.memdir/`, created ignoring itself, so memory committed in a repository stays clean. */
export function makeStateDir(dir: string): void {
  const state = statePath(dir);
  try {
    if (fs.mkdirSync(state, { recursive: true })) fs.writeFileSync(path.join(state, '.gitignore'), '*\n');
  } catch (error) {
    throw new IoError(messages.notWritable(dir, (error as NodeJS.ErrnoException).code ?? String(error)), { cause: error });
  }
}

/**
 * Run `action` holding the memory directory's write lock (`.memdir/lock`,
 * body: PID, start time, time, token). Waits for other writers; a stale lock
 * (see above) is broken. A transaction left by a crashed writer is finished
 * (and, after breaking a stale lock, its temp files swept) before `action` runs.
 */
export async function withDirLock<T>(dir: string, action: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const staleMs = options.staleMs ?? lockStaleMs(60_000);
  const file = statePath(dir, options.name ?? 'lock');
  const token = randomHex(8);
  const body = JSON.stringify({ pid: process.pid, start: processStart(process.pid) ?? null, time: Date.now(), token } satisfies LockBody);
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  let brokeStale = false;

  makeStateDir(dir);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
  } catch (error) {
    throw new IoError(messages.notWritable(dir, (error as NodeJS.ErrnoException).code ?? String(error)), { cause: error });
  }

  for (;;) {
    try {
      fs.writeFileSync(file, body, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new IoError(messages.notWritable(file, (error as NodeJS.ErrnoException).code ?? String(error)), { cause: error });
      }
    }
    const held = readLock(file);
    if (held && isStale(held, staleMs)) {
      brokeStale = true;
      breakStaleLock(file, held, staleMs);
      continue;
    }
    if (Date.now() >= deadline) throw new IoError(messages.lockTimeout(file, held?.body.pid));
    await sleep(Math.min(delay + Math.random() * delay, Math.max(1, deadline - Date.now())));
    delay = Math.min(delay * 2, 100);
  }

  const heartbeat = startHeartbeat(file, token, staleMs);
  try {
    // Only a writer that died holding the lock leaves temp files; walking the whole
    // directory for them on every lock (hooks take it on every prompt) would be waste.
    if (options.name === undefined) recoverTransaction(dir, { sweep: brokeStale });
    return await action();
  } finally {
    clearInterval(heartbeat);
    if (readLock(file)?.body.token === token) fs.rmSync(file, { force: true });
  }
}

/**
 * Readers call this first; they need no lock to read, so they never wait long
 * or fail here. A transaction a writer committed but did not finish is rolled
 * forward (a live writer finishes its renames within the brief wait), and a
 * dead writer's lock and temp files are cleared when the lock is free to take
 * without waiting.
 */
export async function settleDirectory(dir: string): Promise<void> {
  // A link planted for .memdir/ is refused by the lock, and read past here.
  const state = path.join(dir, STATE_DIR);
  const unfinished = fs.existsSync(path.join(state, JOURNAL_FILE));
  if (!unfinished && !fs.existsSync(path.join(state, 'lock'))) return;
  try {
    await withDirLock(dir, () => {}, { timeoutMs: unfinished ? BRIEF_LOCK_WAIT_MS : 0 });
  } catch (error) {
    // Busy, or a directory this user cannot write: read it as it is.
    if (!(error instanceof IoError)) throw error;
  }
}
