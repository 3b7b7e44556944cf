import { resolveChecked, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { sessionContext } from '../store/context.js';
import { runContextHook } from './context-hook.js';
import { messages } from '../core/messages.js';

export interface ContextOptions extends GlobalArgs {
  hook: boolean;
}

/** `memdir context`: the instructions and the index as the agent loads them; `--hook` answers SessionStart. */
export async function runContext(options: ContextOptions, output: Output): Promise<number> {
  if (options.hook) return runContextHook({ dir: options.dir, trustProjectSettings: options.trustProjectSettings, write: output.document, warn: output.warn });
  const resolution = resolveChecked(options, output);
  const context = await sessionContext(resolution.dir);
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
      text: context.text,
    });
    return 0;
  }
  output.out(context.text.trimEnd());
  if (context.index.wasLineTruncated || context.index.wasByteTruncated) {
    output.warn(output.colors.yellow(messages.indexCutWhenLoaded(context.indexFile)));
  }
  return 0;
}
