/**
 * Entry of `dist/guard-hook.cjs`: the guard hook with its judge and lint's rules, which the fast
 * path (src/fast/guard.ts) loads only for a write that may land in the memory directory, handing
 * over what it read of stdin.
 */
import { handOverHookInput, handOverHookInputPrefix } from '../claude-code/hook-io.js';
import type { StdinPrefix } from '../claude-code/hook-stdin.js';
import { takeFastPath, type GuardHookRun } from './hook.js';
import { judgeLocated } from './judge.js';

/** What the fast path read of stdin: the parsed input, the bytes it stopped at, or nothing. */
export type HandedInput = { raw: Record<string, unknown> } | { prefix: StdinPrefix } | undefined;

export function runGuardHookBundle(args: Omit<GuardHookRun, 'write' | 'warn'> & { quiet: boolean }, input: HandedInput): boolean {
  if (input && 'raw' in input) handOverHookInput(input.raw);
  else if (input) handOverHookInputPrefix(input.prefix);
  return takeFastPath(args, () => judgeLocated);
}
