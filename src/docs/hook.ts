/**
 * The Stop hook of `memdir docs`: answer Claude Code at once and update the docs in a detached process
 * (its own process group, output appended to `.memdir/docs.log`), as extract's hook does. Nothing is
 * started without a key (offline nothing is written), nor when the transcript has not grown since
 * the session's last run.
 */
import fs from 'node:fs';
import { configSection } from '../config/find.js';
import { lazyRequire } from '../core/lazy.js';
import { messages } from '../core/messages.js';
import { hookWarnings, isHookProbe, readHookInput, runAsHook, startHookRun, type StopInput } from '../claude-code/hook-io.js';
import { transcriptFileProblem } from '../claude-code/transcript-file.js';
import { chooseEngine, type EngineName } from '../llm/model.js';
import { workingDirectory } from '../store/cwd.js';
import { findGitRoot } from '../store/git-root.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { sleep } from '../store/sleep.js';
import { openLog, readCursor } from './state.js';

export interface DocsHookOptions {
  dir?: string | undefined;
  engine?: EngineName | undefined;
  model?: string | undefined;
  trustProjectSettings: boolean;
  warn: (message: string) => void;
}

/** How long a run started by the Stop hook waits for a transcript Claude Code has not created yet. */
const TRANSCRIPT_WAIT_MS = 5_000;

/** In the run the Stop hook started: wait (briefly) for a transcript Claude Code is about to create. */
export async function awaitTranscript(file: string): Promise<void> {
  for (const deadline = Date.now() + TRANSCRIPT_WAIT_MS; !fs.existsSync(file) && Date.now() < deadline; ) await sleep(50);
}

/** The transcript's size; undefined when it does not exist yet. A path that is not a regular file is refused. */
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

export function runDocsHook(options: DocsHookOptions): Promise<number> {
  return runAsHook('docs', async () => {
    const input = await readHookInput<StopInput>();
    if (!input.transcript_path) throw new Error(messages.extractNoTranscript());
    const resolution = resolveMemoryDir({ dir: options.dir, cwd: input.cwd, trustProjectSettings: options.trustProjectSettings || undefined });
    for (const warning of resolution.warnings) options.warn(warning);
    const { dir } = resolution;
    const section = configSection('docs', { dir, cwd: input.cwd, trustProjectSettings: options.trustProjectSettings || undefined }, options.warn);
    // Offline the run would write nothing: start none.
    if (chooseEngine(options.engine ?? section.engine) === 'local') return;
    // Magic Docs are files git lists: outside a repository there are none.
    const where = input.cwd && fs.existsSync(input.cwd) ? input.cwd : workingDirectory();
    if (!where || !findGitRoot(where)) return;
    const size = transcriptSize(input.transcript_path);
    if (size !== undefined && input.session_id && readCursor(dir, input.session_id)?.transcriptBytes === size) return;
    // doctor's probe: everything up to the run that would ask the model and write a doc.
    if (isHookProbe()) return;
    const { spawn } = lazyRequire<typeof import('node:child_process')>('node:child_process');
    fs.mkdirSync(dir, { recursive: true });
    const log = openLog(dir);
    const args = [process.argv[1]!, 'docs', '--from', input.transcript_path, '--dir', dir, '--after-stop'];
    if (input.session_id) args.push('--session-id', input.session_id);
    if (options.engine) args.push('--engine', options.engine);
    if (options.model) args.push('--model', options.model);
    if (options.trustProjectSettings) args.push('--trust-project-settings');
    // The repository is the session's: the run finds its Magic Docs from there.
    spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], cwd: where }).unref();
    fs.closeSync(log);
  });
}

/** The fast path of `docs --hook` (src/fast/docs.ts): it always takes the command. */
export function takeFastPath(args: Omit<DocsHookOptions, 'warn'> & { quiet: boolean }): boolean {
  return startHookRun(runDocsHook({ ...args, warn: hookWarnings(args.quiet) }));
}
