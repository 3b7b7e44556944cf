import { resolveChecked, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { type SessionContext, sessionContext } from '../store/context.js';
import { runContextHook } from './context-hook.js';
import { messages } from '../core/messages.js';

export interface ContextOptions extends GlobalArgs {
  hook: boolean;
  /** Only team memory: what Claude Code does not load itself while its auto memory is on. */
  teamOnly: boolean;
}

/** The team index in `--json`: the same fields as the private one's. */
function teamJson(team: NonNullable<SessionContext['team']>) {
  const { content, lineCount, byteCount, wasLineTruncated, wasByteTruncated, loadedLines, firstCutLine } = team.index;
  return { indexFile: team.indexFile, lineCount, byteCount, wasLineTruncated, wasByteTruncated, loadedLines, firstCutLine: firstCutLine ?? null, indexContent: content };
}

/** `memdir context`: the instructions and the index as the agent loads them; `--hook` answers SessionStart. */
export async function runContext(options: ContextOptions, output: Output): Promise<number> {
  if (options.hook) return runContextHook({ dir: options.dir, trustProjectSettings: options.trustProjectSettings, teamOnly: options.teamOnly, write: output.document, warn: output.warn });
  const resolution = resolveChecked(options, output);
  const context = await sessionContext(resolution.dir, { teamOnly: options.teamOnly });
  if (options.json) {
    const { content, lineCount, byteCount, wasLineTruncated, wasByteTruncated, loadedLines, firstCutLine, strippedFrontmatter, strippedComments } = context.index;
    output.json({
      dir: resolution.dir,
      indexFile: context.indexFile,
      lineCount,
      byteCount,
      wasLineTruncated,
      wasByteTruncated,
      loadedLines,
      firstCutLine: firstCutLine ?? null,
      strippedFrontmatter,
      strippedComments,
      indexContent: content,
      team: context.team ? teamJson(context.team) : null,
      text: context.text,
    });
    return 0;
  }
  if (context.text) output.out(context.text.trimEnd());
  for (const loaded of [...(options.teamOnly ? [] : [context]), ...(context.team ? [context.team] : [])]) {
    if (loaded.index.wasLineTruncated || loaded.index.wasByteTruncated) output.warn(output.colors.yellow(messages.indexCutWhenLoaded(loaded.indexFile)));
  }
  return 0;
}
