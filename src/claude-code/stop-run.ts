/**
 * What the Stop hooks of extract, session and docs share: the transcript's size (their "nothing
 * new" check), the run they start in a detached process (its own process group, output appended to
 * `.memdir/<command>.log`), and that run's brief wait for a transcript Claude Code has not created yet.
 */
import fs from 'node:fs';
import { lazyRequire } from '../core/lazy.js';
import { openRunLog } from '../store/detached-run.js';
import { sleep } from '../store/sleep.js';
import { transcriptFileProblem } from './transcript-file.js';

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

export interface StopRun {
  /** The memdir command the run is, and the feature whose log under `.memdir/` takes its output. */
  command: string;
  transcript: string;
  dir: string;
  sessionId?: string | undefined;
  engine?: string | undefined;
  model?: string | undefined;
  trustProjectSettings: boolean;
  /** The command's own flags, passed on as given. */
  flags?: string[];
  cwd?: string | undefined;
}

/** Start `memdir <command> --from <transcript> --after-stop …` detached; only the flags given pass on, the run reads the rest from its config section. */
export function startStopRun(run: StopRun): void {
  // Loaded only to start a run: loading node:child_process would weigh on every Stop hook that starts nothing (bench `extract-hook`).
  const { spawn } = lazyRequire<typeof import('node:child_process')>('node:child_process');
  const log = openRunLog(run.dir, run.command);
  const args = [process.argv[1]!, run.command, '--from', run.transcript, '--dir', run.dir, '--after-stop'];
  if (run.sessionId) args.push('--session-id', run.sessionId);
  if (run.engine) args.push('--engine', run.engine);
  if (run.model) args.push('--model', run.model);
  args.push(...(run.flags ?? []));
  if (run.trustProjectSettings) args.push('--trust-project-settings');
  spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], cwd: run.cwd }).unref();
  fs.closeSync(log);
}
