/**
 * The Stop hook of `session`: answer Claude Code at once and keep the notes in a detached process
 * (its own process group, output appended to `.memdir/session.log`). Kept light (no engine, no
 * yargs; `bin/memdir.cjs` loads it without the rest of the CLI), and most turns start nothing: the
 * transcript's growth in bytes bounds the conversation's growth in tokens (a token is counted as
 * four characters, and a character takes at least one byte of the JSON line), so a transcript that
 * has not grown by the threshold cannot be due.
 */
import { configSection } from '../config/find.js';
import { CHARS_PER_TOKEN } from '../core/tokens.js';
import { hookWarnings, isHookProbe, runAsHook, startHookRun } from '../claude-code/hook-io.js';
import { readStopHook, startStopRun, type StopHookOptions, transcriptSize } from '../claude-code/stop-run.js';
import { readCursor } from './state.js';

export type SessionHookOptions = StopHookOptions;

/**
 * Whether a run could find the notes due: false when the transcript has not changed since the last
 * run, or has not grown by the thresholds' tokens in bytes since the notes were written (or since it began).
 */
export function mayBeDue(size: number | undefined, cursor: ReturnType<typeof readCursor>, thresholds: { initTokens: number; updateTokens: number }): boolean {
  if (size === undefined) return true; // not created yet: the run waits for it
  if (cursor?.transcriptBytes === size) return false;
  if (!cursor?.written) return size >= thresholds.initTokens * CHARS_PER_TOKEN;
  return size - cursor.written.transcriptBytes >= thresholds.updateTokens * CHARS_PER_TOKEN;
}

export function runSessionHook(options: SessionHookOptions): Promise<number> {
  return runAsHook('session', async () => {
    const hook = await readStopHook(options);
    const section = configSection('session', { dir: hook.dir, cwd: hook.input.cwd, trustProjectSettings: hook.trust }, options.warn);
    const size = transcriptSize(hook.transcript);
    if (hook.input.session_id && !mayBeDue(size, readCursor(hook.dir, hook.input.session_id), section)) return;
    // doctor's probe: everything up to the run that would write the notes.
    if (isHookProbe()) return;
    startStopRun('session', hook, options);
  });
}

/** The fast path of `session --hook` (src/fast/session.ts): it always takes the command. */
export function takeFastPath(args: Omit<SessionHookOptions, 'warn'> & { quiet: boolean }): boolean {
  return startHookRun(runSessionHook({ ...args, warn: hookWarnings(args.quiet) }));
}
