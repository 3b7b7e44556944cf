/**
 * What the Stop hooks of extract, session and docs share: their input and memory directory, the
 * transcript's size (their "nothing new" check), the run they start in a detached process (its own
 * process group), and that run's brief wait for a transcript Claude Code has not created yet.
 */
import fs from 'node:fs';
import { lazyRequire } from '../core/lazy.js';
import type { EngineName } from '../llm/model.js';
import type { GlobalArgs } from '../shell/options.js';
import { messages } from '../core/messages.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { openRunLog } from '../store/detached-run.js';
import { sleep } from '../store/sleep.js';
import { readHookInput, type StopInput } from './hook-io.js';
import { transcriptFileProblem } from './transcript-file.js';

/** The flags of a command that reads a transcript by hand (`--from`) or from its Stop hook (`--hook`). */
export interface TranscriptCommandOptions extends GlobalArgs {
  from?: string | undefined;
  hook: boolean;
  dryRun: boolean;
  engine?: EngineName | undefined;
  model?: string | undefined;
  sessionId?: string | undefined;
  /** Started by the Stop hook: the transcript may not exist yet. */
  afterStop?: boolean | undefined;
}

/** How long a run started by the Stop hook waits for a transcript Claude Code has not created yet. */
const TRANSCRIPT_WAIT_MS = 5_000;

/**
 * The transcript's size; undefined when it does not exist yet: under load Claude Code 2.1.197 now
 * and then fires Stop before it has created a new session's transcript (test/e2e/claude-code-stop-hook.test.ts).
 * A path that is not a regular file (a device, a FIFO) is refused before any run starts.
 */
export function transcriptSize(file: string): number | undefined {
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

export interface StopHookOptions {
  dir?: string | undefined;
  engine?: string | undefined;
  model?: string | undefined;
  trustProjectSettings: boolean;
  warn: (message: string) => void;
}

export interface StopHook {
  input: StopInput;
  transcript: string;
  /** The memory directory the hook is for. */
  dir: string;
  /** `trustProjectSettings` as the config and directory readers take it. */
  trust: true | undefined;
}

/** The Stop hook's input, its transcript (required) and the memory directory it is for; the resolution's warnings go to `warn`. */
export async function readStopHook(options: StopHookOptions): Promise<StopHook> {
  const input = await readHookInput<StopInput>();
  if (!input.transcript_path) throw new Error(messages.extractNoTranscript());
  const trust = options.trustProjectSettings || undefined;
  const resolution = resolveMemoryDir({ dir: options.dir, cwd: input.cwd, trustProjectSettings: trust });
  for (const warning of resolution.warnings) options.warn(warning);
  return { input, transcript: input.transcript_path, dir: resolution.dir, trust };
}

/**
 * Start `memdir <command> --from <transcript> --after-stop …` detached, its output appended to
 * `.memdir/<command>.log`, in the session's folder unless `more.cwd` says where. Only the flags given
 * pass on (the command's own in `more.flags`): the run reads the rest from its config section.
 */
export function startStopRun(command: string, hook: StopHook, options: StopHookOptions, more: { flags?: string[]; cwd?: string } = {}): void {
  // Loaded only to start a run: loading node:child_process would weigh on every Stop hook that starts nothing (bench `extract-hook`).
  const { spawn } = lazyRequire<typeof import('node:child_process')>('node:child_process');
  const log = openRunLog(hook.dir, command);
  const args = [process.argv[1]!, command, '--from', hook.transcript, '--dir', hook.dir, '--after-stop'];
  if (hook.input.session_id) args.push('--session-id', hook.input.session_id);
  if (options.engine) args.push('--engine', options.engine);
  if (options.model) args.push('--model', options.model);
  args.push(...(more.flags ?? []));
  if (options.trustProjectSettings) args.push('--trust-project-settings');
  const cwd = more.cwd ?? (hook.input.cwd && fs.existsSync(hook.input.cwd) ? hook.input.cwd : undefined);
  spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], cwd }).unref();
  fs.closeSync(log);
}
