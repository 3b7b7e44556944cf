/** How long one network exchange of sync may take: a remote that accepts and never answers must not hold sync forever. */
export const DEFAULT_NETWORK_TIMEOUT_MS = 30_000;

/** The limit, `MEMDIR_NETWORK_TIMEOUT_MS` when set (slow links; tests of a silent remote). */
export function networkTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.MEMDIR_NETWORK_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_NETWORK_TIMEOUT_MS;
}
