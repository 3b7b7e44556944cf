import { UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { configSection } from '../config/find.js';
import { usableEngine } from '../llm/model.js';
import { resolveFor } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { absolutePath, workingDirectory } from '../store/cwd.js';
import { awaitTranscript, type TranscriptCommandOptions } from '../claude-code/stop-run.js';
import { runSessionHook } from './hook.js';
import { keepSessionNotes } from './session.js';

/** `afterStop` also means: keep to the thresholds. */
export type SessionCommandOptions = TranscriptCommandOptions;

/** `memdir session`: a session's notes from its transcript (a file, `-` for stdin, or the Stop hook's). */
export async function runSession(args: SessionCommandOptions, output: Output): Promise<number> {
  if (args.hook) {
    const { dir, engine, model, trustProjectSettings } = args;
    return runSessionHook({ dir, engine, model, trustProjectSettings, warn: output.warn });
  }
  const from = args.from;
  if (!from) throw new UsageError(messages.sessionNeedsInput());
  if (args.afterStop && from !== '-') await awaitTranscript(absolutePath(from));
  const dir = resolveFor(args, output).dir;
  // Flags win; then the `session` section of memdir.config.json; then the defaults.
  const section = configSection('session', { dir, cwd: workingDirectory(), trustProjectSettings: args.trustProjectSettings || undefined }, output.warn);
  const result = await keepSessionNotes({
    dir,
    transcript: from === '-' ? process.stdin : absolutePath(from),
    sessionId: args.sessionId,
    engine: usableEngine(args.engine ?? section.engine),
    model: args.model ?? section.model,
    initTokens: section.initTokens,
    updateTokens: section.updateTokens,
    toolCalls: section.toolCalls,
    maxTokens: section.maxTokens,
    thresholds: args.afterStop === true,
    dryRun: args.dryRun,
    info: output.info,
    warn: output.warn,
  });
  if (args.json) output.json(result);
  else if (args.dryRun && result.notes !== undefined) output.out(result.notes.trimEnd());
  else if (result.status === 'written' && result.notesFile) output.info(messages.sessionWritten(result.notesFile, result.notesTokens, result.reason));
  else if (result.status === 'unchanged' && result.notesFile) output.info(messages.sessionUnchanged(result.notesFile));
  else output.info(messages.sessionNotWritten(result.reason));
  return 0;
}
