/**
 * The SessionStart hook: memory instructions and the index as the agent loads it, and after a
 * compaction or on resume the memories recalled earlier in the session. Kept light (no
 * yargs): `bin/memdir.cjs` runs the plain `context --hook` command line through `takeFastPath`
 * without the rest of the CLI, and the full CLI calls the same `runContextHook`.
 */
import { loadConfig } from '../config/find.js';
import { hookWarnings, isHookProbe, readHookInput, runAsHook, startHookRun, writeHookContext, writeStdout, type ContextHookRun, type SessionStartInput } from '../claude-code/hook-io.js';
import { sessionContext } from '../store/context.js';
import { BROUGHT_BACK_BUDGET_BYTES, memoriesToBringBack } from '../store/recall-session.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { readSessionNotes } from '../store/session-notes.js';
import { renderTemplate } from '../store/templates.js';

/**
 * After a compaction or on resume, the memories the prompt hook surfaced earlier in the session
 * (its record), after the index; '' at startup and on clear, which read nothing more.
 */
function broughtBack(dir: string, input: SessionStartInput): string {
  if ((input.source !== 'compact' && input.source !== 'resume') || !input.session_id) return '';
  const memories = memoriesToBringBack(dir, input.session_id);
  if (memories.length === 0) return '';
  return `${renderTemplate('context-recalled.md', { memories: memories.map((m) => m.text).join('\n\n') }).trimEnd()}\n`;
}

/**
 * After a compaction or on resume, the session's notes (`memdir session`), at most the bytes of what
 * is brought back, cut at a line's end; their headings nest under the section's, and the comment
 * naming the file goes.
 */
function sessionNotes(dir: string, input: SessionStartInput): string {
  if ((input.source !== 'compact' && input.source !== 'resume') || !input.session_id) return '';
  const notes = readSessionNotes(dir, input.session_id, BROUGHT_BACK_BUDGET_BYTES)
    .replace(/^<!--[^\n]*-->\n/, '')
    .replace(/^# /gm, '### ')
    .trim();
  if (!/^- /m.test(notes)) return '';
  return `${renderTemplate('context-session.md', { notes }).trimEnd()}\n`;
}

export function runContextHook(options: ContextHookRun): Promise<number> {
  return runAsHook('context', async () => {
    const input = await readHookInput<SessionStartInput>();
    const resolution = resolveMemoryDir({ dir: options.dir, cwd: input.cwd, trustProjectSettings: options.trustProjectSettings || undefined });
    for (const warning of resolution.warnings) options.warn(warning);
    loadConfig({ dir: resolution.dir, cwd: input.cwd, trustProjectSettings: options.trustProjectSettings || undefined, sections: [] });
    // doctor's probe reads the directory as it is: settling it would complete a transaction or clear a dead lock.
    const context = await sessionContext(resolution.dir, { teamOnly: options.teamOnly, settle: !isHookProbe() });
    const recalled = broughtBack(resolution.dir, input);
    const notes = sessionNotes(resolution.dir, input);
    const text = [context.text.trimEnd(), recalled, notes].filter(Boolean).join('\n');
    writeHookContext(options, 'SessionStart', text.trim() && `${text.trim()}\n`);
  });
}

/** The fast path of `context --hook` (src/fast/context.ts): it always takes the command. */
export function takeFastPath(args: Omit<ContextHookRun, 'write' | 'warn'> & { quiet: boolean }): boolean {
  return startHookRun(runContextHook({ dir: args.dir, trustProjectSettings: args.trustProjectSettings, teamOnly: args.teamOnly, write: writeStdout, warn: hookWarnings(args.quiet) }));
}
