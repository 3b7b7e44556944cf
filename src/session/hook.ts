/**
 * The Stop hook of `session`: answer Claude Code at once and keep the notes in a detached process
 * (its own process group, output appended to `.memdir/session.log`). Kept light (no engine, no
 * yargs; `bin/memdir.cjs` loads it without the rest of the CLI), and most turns start nothing: the
 * transcript's growth in bytes bounds the conversation's growth in tokens (a token is counted as
 * four characters, and a character takes at least one byte of the JSON line), so a transcript that
 * has not grown by the threshold cannot be due.
 */
import fs from 'node:fs';
import { configSection } from '../config/find.js';
import { CHARS_PER_TOKEN } from '../core/tokens.js';
import { messages } from '../core/messages.js';
import { hookWarnings, isHookProbe, readHookInput, runAsHook, startHookRun, type StopInput } from '../claude-code/hook-io.js';
import { transcriptFileProblem } from '../claude-code/transcript-file.js';
import { lazyRequire } from '../core/lazy.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { sleep } from '../store/sleep.js';
import { openLog, readCursor } from './state.js';

export interface SessionHookOptions {
  dir?: string | undefined;
  engine?: string | undefined;
  model?: string | undefined;
  trustProjectSettings: boolean;
  warn: (message: string) => void;
}

const TRANSCRIPT_WAIT_MS = 5_000;

function transcriptSize(file: string): number | undefined {
  try {
    const stat = fs.statSync(file);
    const problem = transcriptFileProblem(stat);
    if (problem) throw new Error(`${file}: ${problem}`);
    return stat.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** In the run the Stop hook started: wait (briefly) for a transcript Claude Code is about to create. */
export async function awaitTranscript(file: string): Promise<void> {
  for (const deadline = Date.now() + TRANSCRIPT_WAIT_MS; !fs.existsSync(file) && Date.now() < deadline; ) await sleep(50);
}

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
    const input = await readHookInput<StopInput>();
    if (!input.transcript_path) throw new Error(messages.extractNoTranscript());
    const trust = options.trustProjectSettings || undefined;
    const resolution = resolveMemoryDir({ dir: options.dir, cwd: input.cwd, trustProjectSettings: trust });
    for (const warning of resolution.warnings) options.warn(warning);
    const { dir } = resolution;
    const section = configSection('session', { dir, cwd: input.cwd, trustProjectSettings: trust }, options.warn);
    const size = transcriptSize(input.transcript_path);
    if (input.session_id && !mayBeDue(size, readCursor(dir, input.session_id), section)) return;
    // doctor's probe: everything up to the run that would write the notes.
    if (isHookProbe()) return;
    // Loaded only to start a run: loading node:child_process would weigh on every Stop hook that starts nothing.
    const { spawn } = lazyRequire<typeof import('node:child_process')>('node:child_process');
    const log = openLog(dir);
    const args = [process.argv[1]!, 'session', '--from', input.transcript_path, '--dir', dir, '--after-stop'];
    if (input.session_id) args.push('--session-id', input.session_id);
    if (options.engine) args.push('--engine', options.engine);
    if (options.model) args.push('--model', options.model);
    if (options.trustProjectSettings) args.push('--trust-project-settings');
    const cwd = input.cwd && fs.existsSync(input.cwd) ? input.cwd : undefined;
    spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], cwd }).unref();
    fs.closeSync(log);
  });
}

/** The fast path of `session --hook` (src/fast/session.ts): it always takes the command. */
export function takeFastPath(args: Omit<SessionHookOptions, 'warn'> & { quiet: boolean }): boolean {
  return startHookRun(runSessionHook({ ...args, warn: hookWarnings(args.quiet) }));
}
