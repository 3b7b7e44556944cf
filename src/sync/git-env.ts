/** How memdir runs git for sync: the environment and the one fetch (light: the no-change fast path uses it too). */
import { networkTimeoutMs } from './network.js';

/** Git variables that carry how the user reaches a remote; every other GIT_* (GIT_DIR of a hook, say) would point git elsewhere. */
export const TRANSPORT_ENV = ['GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_SSL_CAINFO', 'GIT_SSL_CAPATH', 'GIT_ASKPASS', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_NOSYSTEM', 'GIT_TERMINAL_PROMPT', 'SSH_ASKPASS'];

/** Variables that would have git open an editor or a pager (memdir never wants either; simple-git refuses to pass them). */
const INTERACTIVE_ENV = new Set(['EDITOR', 'VISUAL', 'PAGER', 'PREFIX']);

/** The transport variables git may be given (the user's own ways to reach a remote): simple-git asks for each kind to be allowed. */
export const TRANSPORT_ALLOWANCES = { allowUnsafeSshCommand: true, allowUnsafeAskPass: true, allowUnsafeConfigPaths: true } as const;

/** The environment of every git process: never waiting on a terminal for credentials (memdir is non-interactive; credential helpers still apply). */
function gitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !INTERACTIVE_ENV.has(key.toUpperCase()) && (!/^git_/i.test(key) || TRANSPORT_ENV.includes(key))) env[key] = value;
  return { ...env, GIT_TERMINAL_PROMPT: '0' };
}

/**
 * Settings (`-c`) of every git process on the private clone, over whatever its files say: no hook
 * (a planted `reference-transaction` hook runs on every fetch), no fsmonitor, and a transfer that
 * stalls for the network timeout is abandoned by git itself (http; a watchdog covers the rest).
 */
export function cloneConfig(): string[] {
  const seconds = Math.max(1, Math.ceil(networkTimeoutMs() / 1000));
  return ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'http.lowSpeedLimit=1', `http.lowSpeedTime=${seconds}`];
}

/** The environment of git on the private clone: named by GIT_DIR, so no repository around or inside it is found instead. */
export function cloneEnv(repo: string): Record<string, string> {
  return { ...gitEnv(), GIT_DIR: repo };
}

/** The same settings as command-line arguments, for git run without simple-git. */
export function cloneArgs(args: string[]): string[] {
  return [...cloneConfig().flatMap((setting) => ['-c', setting]), ...args];
}

/** Where the private clone keeps the remote branch it fetched. */
export function trackingRefOf(branch: string): string {
  return `refs/remotes/team/${branch}`;
}

/** The one fetch of the remote branch into the private clone. */
export function fetchArgs(url: string, branch: string): string[] {
  return ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', url, `+refs/heads/${branch}:${trackingRefOf(branch)}`];
}
