const DAY_MS = 86_400_000;

/** Whole days between a memory's mtime and now; never negative (clock skew). */
export function ageInDays(mtimeMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - mtimeMs) / DAY_MS));
}

/** The header printed above a recalled memory (docs/architecture.md#recall). */
export function freshnessHeader(path: string, mtimeMs: number, nowMs: number): string {
  const days = ageInDays(mtimeMs, nowMs);
  if (days === 0) return `Memory (saved today): ${path}:`;
  if (days === 1) return `Memory (saved yesterday): ${path}:`;
  return (
    `This memory is ${days} days old. Memories are point-in-time observations, not live state — ` +
    'claims about code behavior or file:line citations may be outdated. ' +
    'Verify against current code before asserting as fact.\n' +
    `Memory: ${path}:`
  );
}
