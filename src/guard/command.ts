import { InputError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { readRawHookInput } from '../claude-code/hook-io.js';
import type { GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { locateWrite, runGuardHook } from './hook.js';
import { judgeLocated } from './judge.js';

export interface GuardOptions extends GlobalArgs {
  hook: boolean;
}

/**
 * `memdir guard`: the verdict on the write a PreToolUse input on stdin proposes (exit 1 when the
 * guard would refuse it); `--hook` answers Claude Code's PreToolUse hook.
 */
export async function runGuard(options: GuardOptions, output: Output): Promise<number> {
  if (options.hook) return runGuardHook({ dir: options.dir, trustProjectSettings: options.trustProjectSettings, write: output.document, warn: output.warn }, () => judgeLocated);
  let raw: Record<string, unknown>;
  try {
    raw = await readRawHookInput();
  } catch (error) {
    throw new InputError('stdin', (error as Error).message);
  }
  const request = { dir: options.dir, trustProjectSettings: options.trustProjectSettings, warn: output.warn };
  const located = locateWrite(raw, request);
  const verdict = (located && judgeLocated(located, request)) ?? { block: [], warn: [] };
  const decision = verdict.block.length > 0 ? 'deny' : 'allow';
  if (options.json) output.json({ decision, reasons: verdict.block, warnings: verdict.warn });
  else {
    output.out(decision === 'deny' ? messages.guardBlocked(verdict.block) : messages.guardAllowed());
    for (const warning of verdict.warn) output.warn(warning);
  }
  return decision === 'deny' ? 1 : 0;
}
