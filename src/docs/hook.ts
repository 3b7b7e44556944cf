/**
 * The Stop hook of `memdir docs`: answer Claude Code at once and update the docs in a detached process
 * (its own process group, output appended to `.memdir/docs.log`), as extract's hook does. Nothing is
 * started without a key (offline nothing is written), nor when the transcript has not grown since
 * the session's last run.
 */
import fs from 'node:fs';
import { configSection } from '../config/find.js';
import { hookWarnings, isHookProbe, runAsHook, startHookRun } from '../claude-code/hook-io.js';
import { readStopHook, startStopRun, type StopHookOptions, transcriptSize } from '../claude-code/stop-run.js';
import { chooseEngine, type EngineName } from '../llm/model.js';
import { workingDirectory } from '../store/cwd.js';
import { findGitRoot } from '../store/git-root.js';
import { readCursor } from './state.js';

export interface DocsHookOptions extends StopHookOptions {
  engine?: EngineName | undefined;
}

export function runDocsHook(options: DocsHookOptions): Promise<number> {
  return runAsHook('docs', async () => {
    const hook = await readStopHook(options);
    const { dir, input } = hook;
    const section = configSection('docs', { dir, cwd: input.cwd, trustProjectSettings: hook.trust }, options.warn);
    // Offline the run would write nothing: start none.
    if (chooseEngine(options.engine ?? section.engine) === 'local') return;
    // Magic Docs are files git lists: outside a repository there are none.
    const where = input.cwd && fs.existsSync(input.cwd) ? input.cwd : workingDirectory();
    if (!where || !findGitRoot(where)) return;
    const size = transcriptSize(hook.transcript);
    if (size !== undefined && input.session_id && readCursor(dir, input.session_id)?.transcriptBytes === size) return;
    // doctor's probe: everything up to the run that would ask the model and write a doc.
    if (isHookProbe()) return;
    fs.mkdirSync(dir, { recursive: true });
    // The repository is the session's: the run finds its Magic Docs from there.
    startStopRun('docs', hook, options, { cwd: where });
  });
}

/** The fast path of `docs --hook` (src/fast/docs.ts): it always takes the command. */
export function takeFastPath(args: Omit<DocsHookOptions, 'warn'> & { quiet: boolean }): boolean {
  return startHookRun(runDocsHook({ ...args, warn: hookWarnings(args.quiet) }));
}
