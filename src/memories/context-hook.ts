/**
 * The SessionStart hook: memory instructions and the index as the agent loads it. Kept light (no
 * yargs): `bin/memdir.cjs` runs the plain `context --hook` command line through `takeFastPath`
 * without the rest of the CLI, and the full CLI calls the same `runContextHook`.
 */
import { loadConfig } from '../config/find.js';
import { hookWarnings, readHookInput, runAsHook, startHookRun, writeHookContext, writeStdout, type ContextHookRun, type SessionStartInput } from '../claude-code/hook-io.js';
import { sessionContext } from '../store/context.js';
import { resolveMemoryDir } from '../store/resolve.js';

export function runContextHook(options: ContextHookRun): Promise<number> {
  return runAsHook('context', async () => {
    const input = await readHookInput<SessionStartInput>();
    const resolution = resolveMemoryDir({ dir: options.dir, cwd: input.cwd, trustProjectSettings: options.trustProjectSettings || undefined });
    for (const warning of resolution.warnings) options.warn(warning);
    loadConfig({ dir: resolution.dir, cwd: input.cwd, trustProjectSettings: options.trustProjectSettings || undefined, sections: [] });
    const context = await sessionContext(resolution.dir, { teamOnly: options.teamOnly });
    writeHookContext(options, 'SessionStart', context.text);
  });
}

/** The fast path of `context --hook` (src/fast/context.ts): it always takes the command. */
export function takeFastPath(args: Omit<ContextHookRun, 'write' | 'warn'> & { quiet: boolean }): boolean {
  return startHookRun(runContextHook({ dir: args.dir, trustProjectSettings: args.trustProjectSettings, teamOnly: args.teamOnly, write: writeStdout, warn: hookWarnings(args.quiet) }));
}
