import fs from 'node:fs';
import path from 'node:path';
import { InputError, UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { usableEngine, type EngineName } from '../llm/model.js';
import { resolveFor, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { absolutePath, workingDirectory } from '../store/cwd.js';
import { transcriptFileProblem } from '../claude-code/transcript-file.js';
import { runRecallHook, skippedMemories } from './hook.js';
import { unreadableProblem } from './load.js';
import { recall, type RecallResult } from './recall.js';
import { recallSettings } from './settings.js';

export interface RecallCommandOptions extends GlobalArgs {
  query?: string[] | undefined;
  limit?: number | undefined;
  recentTools?: string | undefined;
  alreadySurfaced?: string | undefined;
  transcript?: string | undefined;
  engine?: EngineName | undefined;
  model?: string | undefined;
  queries?: string | undefined;
  semantic?: boolean | undefined;
  hook: boolean;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The files recall left out, each with why: read again here (the index keeps no reason), never in the prompt hook. */
const leftOut = (dir: string, result: RecallResult) => (result.unreadable ?? []).map((rel) => ({ path: rel, problem: unreadableProblem(path.join(dir, rel)) }));

function asJson(query: string, result: RecallResult, unreadable: ReturnType<typeof leftOut>, skipped: ReturnType<typeof skippedMemories> = []) {
  return {
    query,
    engine: result.engine,
    semantic: result.semantic ?? false,
    selected: result.memories.map((m) => ({ path: m.path, file: m.file, score: m.score })),
    // Left out before ranking: memdir showed them already (--already-surfaced), or Claude Code's own recall did (--transcript).
    skipped,
    // What the prompt hook decides: it injects nothing when the best memory is not a confident match.
    confidence: result.confidence ?? null,
    unreadable,
    usage: result.usage ?? null,
  };
}

async function batch(args: RecallCommandOptions, output: Output, dir: string, chosen: ReturnType<typeof recallSettings>): Promise<number> {
  const file = absolutePath(args.queries!);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(file, `cannot read (${(error as NodeJS.ErrnoException).code})`);
  }
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    let query: { query?: unknown; id?: unknown; recentTools?: unknown };
    try {
      query = JSON.parse(line);
    } catch {
      throw new InputError(`${file}:${i + 1}`, messages.queryLineNotObject());
    }
    if (typeof query.query !== 'string') throw new InputError(`${file}:${i + 1}`, messages.queryNotString());
    const result = await recall({ dir, query: query.query, ...chosen, recentTools: Array.isArray(query.recentTools) ? (query.recentTools as string[]) : list(args.recentTools), warn: output.warn });
    output.document(`${JSON.stringify({ id: query.id ?? i + 1, ...asJson(query.query, result, leftOut(dir, result)) })}\n`);
  }
  return 0;
}

/** A transcript given on the command line: bad input is an error naming it (the hook, by contrast, reads what it can). */
function transcriptChecked(value: string): string {
  const file = absolutePath(value);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    throw new InputError(file, `cannot read (${(error as NodeJS.ErrnoException).code})`);
  }
  const problem = transcriptFileProblem(stat);
  if (problem) throw new InputError(file, problem);
  return file;
}

/** `memdir recall`: the chosen memories with their headers; `--hook` answers UserPromptSubmit; `--queries` runs a batch. */
export async function runRecallCommand(args: RecallCommandOptions, output: Output): Promise<number> {
  if (args.hook) return runRecallHook({ ...args, write: output.document, warn: output.warn });
  const dir = resolveFor(args, output).dir;
  const chosen = recallSettings(args, dir, workingDirectory(), { trustProjectSettings: args.trustProjectSettings, warn: output.warn });
  usableEngine(chosen.engine);
  if (args.queries) return batch(args, output, dir, chosen);
  const query = (args.query ?? []).join(' ').trim();
  if (!query) throw new UsageError(messages.recallNeedsQuery());
  const skipped = skippedMemories(dir, list(args.alreadySurfaced), args.transcript === undefined ? undefined : transcriptChecked(args.transcript));
  if (args.debug) for (const skip of skipped) output.warn(messages.recallSkipped(skip.path, skip.reason));
  const result = await recall({ dir, query, ...chosen, recentTools: list(args.recentTools), alreadySurfaced: skipped.map((s) => s.path), warn: output.warn });
  const unreadable = leftOut(dir, result);
  for (const file of unreadable) output.warn(messages.leftOut('recall', file.path, file.problem));
  if (args.json) {
    output.json(asJson(query, result, unreadable, skipped));
    return 0;
  }
  if (result.memories.length === 0) output.info(messages.recallNoMatch());
  output.out(result.memories.map((m) => m.text).join('\n\n'));
  return 0;
}
