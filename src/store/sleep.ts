/**
 * Wait `ms` milliseconds. Not node:timers/promises: the hook bundles include the modules that
 * wait (locks, the Stop hook's run), and that module would load at every start-up.
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
