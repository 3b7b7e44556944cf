import fs from 'node:fs';
import path from 'node:path';

/**
 * Every fault point and clock override that exists for the tests, in one place. None of these
 * variables is a user setting (docs/configuration.md lists them as test-only); unset, each hook
 * costs one environment lookup and production behaviour is untouched.
 *
 * | variable | what a test does with it |
 * |---|---|
 * | `MEMDIR_TEST_CRASH_AFTER_STEP=N`, `MEMDIR_TEST_CRASH_SIGNAL` | stop a writer right after its Nth durable step |
 * | `MEMDIR_TEST_CRASH_AT=name` | stop a process with SIGKILL at the named point (`sync-fetched`, `sync-pushed`) |
 * | `MEMDIR_SYNC_PUSH_BARRIER=dir::count` | hold `count` sync processes before their first push, so the pushes really race |
 * | `MEMDIR_TEST_NOW` | move the dream clock (the gate's 24 hours cannot be waited for) |
 * | `MEMDIR_MODEL_TIMEOUT_MS` | shorten every model call's timeout |
 * | `MEMDIR_LOCK_STALE_MS` | age locks faster than a minute |
 * | `MEMDIR_SYNC_BACKOFF_MS` | shorten the HTTP backend's retry backoff |
 */

let stepsTaken = 0;

/** Called after each durable write step: with `MEMDIR_TEST_CRASH_AFTER_STEP=N` the process sends itself `MEMDIR_TEST_CRASH_SIGNAL` (default SIGKILL) at step N. */
export function crashPoint(): void {
  const after = Number(process.env.MEMDIR_TEST_CRASH_AFTER_STEP);
  if (!Number.isInteger(after) || after <= 0) return;
  if (++stepsTaken === after) process.kill(process.pid, (process.env.MEMDIR_TEST_CRASH_SIGNAL || 'SIGKILL') as NodeJS.Signals);
}

/** With `MEMDIR_TEST_CRASH_AT=name`, the process kills itself (SIGKILL) here: a crash between two steps that are not file writes (a fetch, a push). */
export function crashAt(name: string): void {
  if (process.env.MEMDIR_TEST_CRASH_AT === name) process.kill(process.pid, 'SIGKILL');
}

/** Before its first push, each sync process waits until `count` of them reached this point (`MEMDIR_SYNC_PUSH_BARRIER=dir::count`). */
export async function pushBarrier(): Promise<void> {
  const spec = process.env.MEMDIR_SYNC_PUSH_BARRIER;
  if (!spec) return;
  const [dir, count] = spec.split('::') as [string, string];
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, String(process.pid)), '');
  for (let waited = 0; fs.readdirSync(dir).length < Number(count) && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
}

/** Now, for the dream gate and lock; `MEMDIR_TEST_NOW` (an ISO time or ms since the epoch) replaces it. */
export function now(env: NodeJS.ProcessEnv = process.env): Date {
  const forced = env.MEMDIR_TEST_NOW;
  if (forced) {
    const date = new Date(/^\d+$/.test(forced) ? Number(forced) : forced);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return new Date();
}

/** `MEMDIR_MODEL_TIMEOUT_MS`, which replaces every model call's own timeout; undefined when unset. */
export function modelTimeoutOverride(env: NodeJS.ProcessEnv): number | undefined {
  const value = Number(env.MEMDIR_MODEL_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/** How old a lock's heartbeat may grow before the lock is stale: `fallback`, or `MEMDIR_LOCK_STALE_MS`. */
export function lockStaleMs(fallback: number): number {
  return Number(process.env.MEMDIR_LOCK_STALE_MS) || fallback;
}

/** The HTTP sync backend's first retry delay: `fallback`, or `MEMDIR_SYNC_BACKOFF_MS`. */
export function syncBackoffMs(fallback: number): number {
  return Number(process.env.MEMDIR_SYNC_BACKOFF_MS ?? fallback);
}
