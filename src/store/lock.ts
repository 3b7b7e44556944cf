import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IoError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { STATE_DIR } from '../core/taxonomy.js';
import { recoverTransaction } from './atomic.js';

export interface LockOptions {
  /** Give up after this long (ms). */
  timeoutMs?: number;
  /** A lock older than this is stale even if its PID looks alive (PIDs get reused). */
  staleMs?: number;
}

interface LockBody {
  pid: number;
  time: number;
  token: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readBody(file: string): { text: string; body: Partial<LockBody> } | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8');
    try {
      return { text, body: JSON.parse(text) as Partial<LockBody> };
    } catch {
      return { text, body: {} };
    }
  } catch {
    return undefined;
  }
}

function isOlderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs > ms;
  } catch {
    return false;
  }
}

/**
 * Take over a stale lock without stealing a live one: move it aside, check
 * that what was moved is what was judged stale, and put it back otherwise.
 */
function breakStaleLock(file: string, staleText: string): void {
  const aside = `${file}.stale-${crypto.randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return;
  }
  if (fs.readFileSync(aside, 'utf8') !== staleText) {
    try {
      fs.linkSync(aside, file);
    } catch {
      // someone else holds a fresh lock now; theirs wins
    }
  }
  fs.rmSync(aside, { force: true });
}

/**
 * Run `action` holding the memory directory's write lock (`.memdir/lock`,
 * body: PID, time, token). Waits for other writers; a lock whose process is
 * gone, or older than `staleMs`, is broken. A transaction left by a crashed
 * writer is finished (and, after breaking a stale lock, its temp files swept)
 * before `action` runs.
 */
export async function withDirLock<T>(dir: string, action: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  // The environment override is for tests, which cannot wait a minute for a lock to age.
  const staleMs = options.staleMs ?? (Number(process.env.MEMDIR_LOCK_STALE_MS) || 60_000);
  const file = path.join(dir, STATE_DIR, 'lock');
  const token = crypto.randomBytes(8).toString('hex');
  const body = JSON.stringify({ pid: process.pid, time: Date.now(), token } satisfies LockBody);
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  let brokeStale = false;

  try {
    // A new state folder ignores itself, so memory committed in a repository stays clean.
    if (fs.mkdirSync(path.dirname(file), { recursive: true })) fs.writeFileSync(path.join(path.dirname(file), '.gitignore'), '*\n');
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
    const held = readBody(file);
    if (held) {
      const { pid, time } = held.body;
      const stale =
        typeof pid === 'number' && typeof time === 'number'
          ? !isAlive(pid) || Date.now() - time > staleMs
          : isOlderThan(file, 2_000); // a body still being written is not stale

      if (stale) {
        brokeStale = true;
        breakStaleLock(file, held.text);
        continue;
      }
    }
    if (Date.now() > deadline) throw new IoError(messages.lockTimeout(file, held?.body.pid));
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 100);
  }

  try {
    // Only a writer that died holding the lock leaves temp files; walking the whole
    // directory for them on every lock (hooks take it on every prompt) would be waste.
    recoverTransaction(dir, { sweep: brokeStale });
    return await action();
  } finally {
    const held = readBody(file);
    if (held?.body.token === token) fs.rmSync(file, { force: true });
  }
}

/**
 * Readers call this first: if a writer crashed mid-transaction, finish it
 * (under the lock) so what they read is the old state or the new one.
 */
export async function settleDirectory(dir: string): Promise<void> {
  if (fs.existsSync(path.join(dir, STATE_DIR, 'journal.json'))) await withDirLock(dir, () => {});
}
