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
import { readCursor } from './state.js';
import { startStopRun, transcriptSize } from '../claude-code/stop-run.js';

export interface ExtractHookOptions {
  dir?: string | undefined;
  engine?: string | undefined;
  model?: string | undefined;
  every?: number | undefined;
  explicitOnly?: boolean | undefined;
  trustProjectSettings: boolean;
  warn: (message: string) => void;
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
    const flags = [...(options.every !== undefined ? ['--every', String(options.every)] : []), ...(options.explicitOnly ? ['--explicit-only'] : [])];
    const cwd = input.cwd && fs.existsSync(input.cwd) ? input.cwd : undefined;
    startStopRun({
      command: 'extract',
      transcript: input.transcript_path,
      dir,
      sessionId: input.session_id,
      engine: options.engine,
      model: options.model,
      trustProjectSettings: options.trustProjectSettings,
      flags,
      cwd,
    });
  });
}

/** The fast path of `extract --hook` (src/fast/extract.ts): it always takes the command. */
export function takeFastPath(args: Omit<ExtractHookOptions, 'warn'> & { quiet: boolean }): boolean {
  return startHookRun(runExtractHook({ ...args, warn: hookWarnings(args.quiet) }));
}
