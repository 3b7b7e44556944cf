/**
 * The Stop hook: answer Claude Code at once and extract in a detached process (its own process
 * group, output appended to `.memdir/extract.log`). Nothing is started when the transcript has
 * not grown since the session's last run. Kept light (no engine, no yargs): it runs after every
 * turn, and `bin/memdir.cjs` loads it without the rest of the CLI.
 */
import { loadConfig } from '../config/find.js';
import { hookWarnings, isHookProbe, runAsHook, startHookRun } from '../claude-code/hook-io.js';
import { readCursor } from './state.js';
import { readStopHook, startStopRun, type StopHookOptions, transcriptSize } from '../claude-code/stop-run.js';

export interface ExtractHookOptions extends StopHookOptions {
  every?: number | undefined;
  explicitOnly?: boolean | undefined;
}

export function runExtractHook(options: ExtractHookOptions): Promise<number> {
  return runAsHook('extract', async () => {
    const hook = await readStopHook(options);
    // The run it starts reads the `extract` section; the hook validates the whole file, as every command does.
    loadConfig({ dir: hook.dir, cwd: hook.input.cwd, trustProjectSettings: hook.trust, sections: [] });
    const size = transcriptSize(hook.transcript);
    if (size !== undefined && hook.input.session_id && readCursor(hook.dir, hook.input.session_id)?.transcriptBytes === size) return;
    // doctor's probe: everything up to the run that would write memory.
    if (isHookProbe()) return;
    const flags = [...(options.every !== undefined ? ['--every', String(options.every)] : []), ...(options.explicitOnly ? ['--explicit-only'] : [])];
    startStopRun('extract', hook, options, { flags });
  });
}

/** The fast path of `extract --hook` (src/fast/extract.ts): it always takes the command. */
export function takeFastPath(args: Omit<ExtractHookOptions, 'warn'> & { quiet: boolean }): boolean {
  return startHookRun(runExtractHook({ ...args, warn: hookWarnings(args.quiet) }));
}
