/**
 * Fault injection for the crash tests. With MEMDIR_TEST_CRASH_AFTER_STEP=N the
 * process sends itself MEMDIR_TEST_CRASH_SIGNAL (default SIGKILL) right after
 * its Nth durable write step, so a test can stop any writer at any step.
 * Unset, it costs one environment lookup per step.
 */
let stepsTaken = 0;

export function crashPoint(): void {
  const after = Number(process.env.MEMDIR_TEST_CRASH_AFTER_STEP);
  if (!Number.isInteger(after) || after <= 0) return;
  if (++stepsTaken === after) process.kill(process.pid, (process.env.MEMDIR_TEST_CRASH_SIGNAL || 'SIGKILL') as NodeJS.Signals);
}
