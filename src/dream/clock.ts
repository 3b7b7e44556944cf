/**
 * Now, for the dream gate and lock. `MEMDIR_TEST_NOW` (an ISO time or ms since
 * the epoch) moves the clock for tests only — the gate's 24 hours cannot be
 * waited for in a test. It is not a user setting; nothing else reads it.
 */
export function now(env: NodeJS.ProcessEnv = process.env): Date {
  const forced = env.MEMDIR_TEST_NOW;
  if (forced) {
    const date = new Date(/^\d+$/.test(forced) ? Number(forced) : forced);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return new Date();
}
