import path from 'node:path';
import { calendarDay } from '../core/dates.js';
import { anchorDate, buildModel, type MemoryDirModel } from '../core/dir-model.js';
import { InputError } from '../core/errors.js';
import { lazyRequire } from '../core/lazy.js';
import { messages } from '../core/messages.js';
import { pointerPath } from '../core/memory-index.js';
import { INDEX_FILE, isTeamPath } from '../core/taxonomy.js';
import { readMemoryDir } from '../store/dir-reader.js';
import type { PlanInputFile, RefactorPlan } from './phases/state.js';

/**
 * Read the directory and resolve each file's date anchor (modified → last commit → mtime): what a
 * plan starts from. The model is returned too, for a caller that audits the directory as it was.
 */
export async function readPlanInput(dir: string): Promise<{ input: Map<string, PlanInputFile>; model: MemoryDirModel }> {
  const { raw } = await readMemoryDir(dir, { git: { repoFiles: true, commitTimes: true } });
  // Every plan rewrites the index: an index memdir cannot write back is refused before anything else.
  const indexProblem = raw.escapingLinks.has(INDEX_FILE) ? messages.escapesDirectory(dir) : (raw.unreadable.find((u) => u.path === INDEX_FILE)?.message ?? raw.readOnly.get(INDEX_FILE));
  if (indexProblem) throw new InputError(path.join(dir, INDEX_FILE), indexProblem);
  const model = buildModel(raw, { skipIndex: false });
  const pointed = new Set(model.index?.index.lines.flatMap((l) => (l.kind === 'pointer' ? [pointerPath(l.target)] : [])) ?? []);
  const leftAlone = new Map<string, string>([
    ...raw.unreadable.map((u): [string, string] => [u.path, u.message]),
    ...[...raw.escapingLinks].filter((p) => p.endsWith('.md')).map((p): [string, string] => [p, messages.escapingFile()]),
    ...raw.readOnly,
    // Team memory is a directory of its own: a pointer of this index to it is kept, and nothing of it is rewritten here.
    ...[...raw.present].filter((p) => isTeamPath(p) && pointed.has(p) && !raw.files.has(p)).map((p): [string, string] => [p, messages.teamMemoryElsewhere()]),
  ]);
  const input = new Map<string, PlanInputFile>();
  for (const topic of model.topics) {
    const anchor = anchorDate(topic);
    // The facts the date module chooses a trustworthy anchor from (the file time alone is none).
    const dateFacts = { frontmatter: topic.topic.frontmatter?.data, fileName: topic.path, commitTimeMs: topic.commitTimeMs, mtimeMs: topic.mtimeMs };
    input.set(topic.path, { text: topic.text, anchor: anchor.date, anchorSource: anchor.source, dateFacts, leftAlone: leftAlone.get(topic.path) });
  }
  // Files that could not be read at all still take part: their names are taken and their pointers kept.
  for (const [file, reason] of leftAlone) if (!input.has(file)) input.set(file, { text: '', anchor: new Date(0), anchorSource: 'none', leftAlone: reason });
  if (model.index) {
    const time = model.index.commitTimeMs ?? model.index.mtimeMs;
    const date = new Date(time);
    input.set(INDEX_FILE, {
      text: model.index.text,
      anchor: date,
      anchorSource: `${model.index.commitTimeMs ? 'last commit' : 'file time'} ${calendarDay(date)}`,
      dateFacts: { commitTimeMs: model.index.commitTimeMs, mtimeMs: model.index.mtimeMs },
    });
  }
  return { input, model };
}

/** Each planned file's text as it is now. */
export function textsOf(input: Map<string, PlanInputFile>): Map<string, string> {
  return new Map([...input].map(([file, f]) => [file, f.text]));
}

/** Unified diffs of every change; a created or deleted file is named in a header of its own rather than against /dev/null. */
export async function diffsOf(input: Map<string, PlanInputFile>, plan: RefactorPlan): Promise<string[]> {
  const { createTwoFilesPatch, OMIT_HEADERS } = lazyRequire<typeof import('diff')>('diff');
  return [...plan.changes].map(([file, content]) => {
    const old = input.get(file)?.text;
    if (content !== null && old !== undefined) return createTwoFilesPatch(`a/${file}`, `b/${file}`, old, content);
    const header = content === null ? messages.diffDeleted(file) : messages.diffCreated(file);
    return `${header}\n${createTwoFilesPatch(file, file, old ?? '', content ?? '', undefined, undefined, { headerOptions: OMIT_HEADERS })}`;
  });
}
