/**
 * The Stop hook: answer Claude Code at once and extract in a detached process (its own process
 * group, output appended to `.memdir/extract.log`). Nothing is started when the transcript has
 * not grown since the session's last run. Kept light (no engine, no yargs): it runs after every
 * turn, and `bin/memdir.cjs` loads it without the rest of the CLI.
 */
import fs from 'node:fs';
import { loadConfig } from '../config/find.js';
import { messages } from '../core/messages.js';
import { hookWarnings, isHookProbe, readHookInput, runAsHook, startHookRun, type StopInput } from '../claude-code/hook-io.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { sleep } from '../store/sleep.js';
import { openLog, readCursor } from './state.js';
import { transcriptFileProblem } from '../claude-code/transcript-file.js';
import { lazyRequire } from '../core/lazy.js';

export interface ExtractHookOptions {
  dir?: string | undefined;
  engine?: string | undefined;
  model?: string | undefined;
  every?: number | undefined;
  explicitOnly?: boolean | undefined;
  trustProjectSettings: boolean;
  warn: (message: string) => void;
}

/** How long a run started by the Stop hook waits for a transcript Claude Code has not created yet. */
const TRANSCRIPT_WAIT_MS = 5_000;

/**
 * The transcript's size; undefined when it does not exist yet: under load Claude Code 2.1.197 now
 * and then fires Stop before it has created a new session's transcript (test/e2e/claude-code-stop-hook.test.ts).
 * A path that is not a regular file (a device, a FIFO) is refused before any run starts.
 */
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

export function runExtractHook(options: ExtractHookOptions): Promise<number> {
  return runAsHook('extract', async () => {
    const input = await readHookInput<StopInput>();
    if (!input.transcript_path) throw new Error(messages.extractNoTranscript());
    const resolution = resolveMemoryDir({ dir: options.dir, cwd: input.cwd, trustProjectSettings: options.trustProjectSettings || undefined });
    for (const warning of resolution.warnings) options.warn(warning);
    const { dir } = resolution;
    // The run it starts reads the `extract` section; the hook validates the whole file, as every command does.
    loadConfig({ dir, cwd: input.cwd, trustProjectSettings: options.trustProjectSettings || undefined, sections: [] });
    const size = transcriptSize(input.transcript_path);
    if (size !== undefined && input.session_id && readCursor(dir, input.session_id)?.transcriptBytes === size) return;
    // doctor's probe: everything up to the run that would write memory.
    if (isHookProbe()) return;
    // Loaded only to start a run: loading node:child_process would weigh on every no-op Stop hook (bench `extract-hook`).
    const { spawn } = lazyRequire<typeof import('node:child_process')>('node:child_process');
    const log = openLog(dir);
    // Only the flags given pass on: the run reads the rest from the `extract` section of the config.
    const args = [process.argv[1]!, 'extract', '--from', input.transcript_path, '--dir', dir, '--after-stop'];
    if (input.session_id) args.push('--session-id', input.session_id);
    if (options.engine) args.push('--engine', options.engine);
    if (options.every !== undefined) args.push('--every', String(options.every));
    if (options.model) args.push('--model', options.model);
    if (options.explicitOnly) args.push('--explicit-only');
    if (options.trustProjectSettings) args.push('--trust-project-settings');
    const cwd = input.cwd && fs.existsSync(input.cwd) ? input.cwd : undefined;
    spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], cwd }).unref();
    fs.closeSync(log);
  });
}

/** The fast path of `extract --hook` (src/fast/extract.ts): it always takes the command. */
export function takeFastPath(args: Omit<ExtractHookOptions, 'warn'> & { quiet: boolean }): boolean {
  return startHookRun(runExtractHook({ ...args, warn: hookWarnings(args.quiet) }));
}
