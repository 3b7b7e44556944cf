/**
 * Entry of `dist/guard-hook.cjs`: the guard hook with its judge and lint's rules, which the fast
 * path (src/fast/guard.ts) loads only for a write that may land in the memory directory, handing
 * over what it read of stdin.
 */
import { handOverHookInput, handOverHookInputPrefix, hookWarnings, startHookRun, writeStdout } from '../claude-code/hook-io.js';
import type { StdinPrefix } from '../claude-code/hook-stdin.js';
import { skipsCodeCache } from '../shell/code-cache.js';
import { runGuardHook, type GuardHookRun } from './hook.js';
import { judgeLocated } from './judge.js';

/** What the fast path read of stdin: the parsed input, the bytes it stopped at, or nothing. */
export type HandedInput = { raw: Record<string, unknown> } | { prefix: StdinPrefix } | undefined;

export function runGuardHookBundle(args: Omit<GuardHookRun, 'write' | 'warn'> & { quiet: boolean }, input: HandedInput): boolean {
  if (input && 'raw' in input) handOverHookInput(input.raw);
  else if (input) handOverHookInputPrefix(input.prefix);
  let judged = false;
  const judge = () => {
    judged = true;
    return judgeLocated;
  };
  const run = runGuardHook({ dir: args.dir, trustProjectSettings: args.trustProjectSettings, write: writeStdout, warn: hookWarnings(args.quiet) }, judge);
  // This bundle's code cache is made by the first run that judged a write: one that did not (the write turned out
  // to be outside, the input was unreadable) would leave a cache without the judge and lint's rules.
  return startHookRun(
    run.then((code) => {
      if (!judged) skipsCodeCache();
      return code;
    }),
  );
}
