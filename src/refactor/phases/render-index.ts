import { INDEX_LINE_MAX, INDEX_MAX_BYTES, INDEX_MAX_LINES } from '../../core/limits.js';
import { parseMemoryIndex, renderPointer } from '../../core/memory-index.js';
import { INDEX_FILE, isMemoryType, type MemoryType } from '../../core/taxonomy.js';
import { memoryFields, newTopicFile, serializeTopicFile, withBody } from '../../core/topic-file.js';
import { truncateIndex } from '../../core/truncate.js';
import { clip } from '../classify.js';
import { lineCount, MAX_INDEX_POINTERS, rewriteDates, SUB_INDEX_SIZE, TYPE_TITLE, typeFromFileName, type IndexStats, type PlanState, type Pointer, type RefactorPlan } from './state.js';

type Entry = { type: MemoryType | 'other'; section: string; line: string };

/**
 * Last phase: the new index (every topic file once, pointers under the
 * section they were in, the rest grouped by type, one short line each; a
 * second level per type when they do not fit) and the changed files.
 */
export function renderIndex(state: PlanState): RefactorPlan {
  const maxLine = state.options.maxLineLength ?? INDEX_LINE_MAX;
  const entries = indexEntries(state, maxLine);
  const changes = new Map<string, string | null>();
  const sections = new Set(entries.map((e) => e.section || TYPE_TITLE[e.type]));
  const bytesIfFlat = entries.reduce((n, e) => n + e.line.length + 1, 0);
  const flat = entries.length + 2 * sections.size <= MAX_INDEX_POINTERS && bytesIfFlat < INDEX_MAX_BYTES - 1000;
  const indexOut: string[] = [state.title ?? '# Memory', ''];
  const wantedSubIndexes = new Set<string>();
  if (flat) {
    const groups = new Map<string, string[]>();
    for (const e of entries) {
      const group = e.section || TYPE_TITLE[e.type];
      groups.set(group, [...(groups.get(group) ?? []), e.line]);
    }
    for (const [group, lines] of groups) indexOut.push(`## ${group}`, ...lines, '');
  } else {
    // Too many memories for one index the agent loads whole: a second level of files per type,
    // holding the original section headings; MEMORY.md points to those files.
    for (const type of [...(['user', 'feedback', 'project', 'reference'] as const), 'other' as const]) {
      const ofType = entries.filter((e) => e.type === type);
      if (ofType.length === 0) continue;
      // Pointers without a section first, so none of them sits under another section's heading.
      const ordered = [...ofType.filter((e) => !e.section), ...orderBySection(ofType.filter((e) => e.section))];
      indexOut.push(`## ${TYPE_TITLE[type]}`);
      for (let i = 0; i < ordered.length; i += SUB_INDEX_SIZE) {
        const chunk = ordered.slice(i, i + SUB_INDEX_SIZE);
        const n = i / SUB_INDEX_SIZE + 1;
        const path = `index_${type}${n > 1 ? `_${n}` : ''}.md`;
        const name = `${TYPE_TITLE[type]} memories${n > 1 ? ` (${n})` : ''}`;
        const body: string[] = [];
        let current = '';
        for (const e of chunk) {
          if (e.section && e.section !== current) body.push(`## ${e.section}`);
          current = e.section;
          body.push(e.line);
        }
        const description = `Index of ${chunk.length} ${type} memories: ${clip(chunk.map((e) => /\[([^\]]*)\]/.exec(e.line)?.[1] ?? '').join(', '), 100)}`;
        wantedSubIndexes.add(path);
        changes.set(path, serializeTopicFile(newTopicFile({ name, description, type: 'reference' }, body.join('\n'))));
        indexOut.push(renderPointer({ title: name, target: path, hook: clip(description, Math.max(20, maxLine - path.length - name.length - 10)) }));
      }
      indexOut.push('');
    }
  }
  while (indexOut[indexOut.length - 1] === '') indexOut.pop();
  // Line endings and BOM as the index had them: a CRLF index stays CRLF.
  const { bom, eol } = state.parsedIndex;
  const newIndex = `${bom}${indexOut.join('\n').replace(/\n/g, eol)}${eol}`;
  for (const sub of state.subIndexes) if (!wantedSubIndexes.has(sub)) changes.set(sub, null);
  for (const sub of wantedSubIndexes) if (state.files.get(sub)?.text === changes.get(sub)) changes.delete(sub);

  for (const topic of state.topics.values()) {
    if (topic.leftAlone) continue;
    const text = serializeTopicFile(topic.file);
    if (text !== topic.originalText) changes.set(topic.path, text);
  }
  for (const path of state.mergedAway.keys()) changes.set(path, null);
  if (newIndex !== state.indexText) {
    changes.set(INDEX_FILE, newIndex);
    state.operations.push({ kind: 'rewrite-index', path: INDEX_FILE });
  }
  if (lineCount(newIndex) > INDEX_MAX_LINES) state.warnings.push({ path: INDEX_FILE, message: `still ${lineCount(newIndex)} lines` });
  const { blockTexts: blocks, operations, dropped, warnings } = state;
  return { blocks, operations, changes, dropped, warnings, before: indexStats(state.indexText), after: indexStats(newIndex) };
}

/** One index line per surviving topic file, with its type and section. */
function indexEntries(state: PlanState, maxLine: number): Entry[] {
  const byTarget = new Map<string, Pointer>();
  const survivor = (path: string): string => {
    let current = path;
    while (state.mergedAway.has(current)) current = state.mergedAway.get(current)!;
    return current;
  };
  // A file's own pointer stands for everything merged into it (the merge carried the other pointers'
  // text into its body); a survivor without one gets the first merged pointer, redrawn to point at it.
  const pointedDirectly = new Set(state.pointers.map((p) => p.target));
  for (const pointer of state.pointers) {
    const target = survivor(pointer.target);
    if (byTarget.has(target) || (target !== pointer.target && pointedDirectly.has(target))) continue;
    byTarget.set(target, target === pointer.target ? pointer : { ...pointer, target, raw: '' });
  }
  for (const topic of [...state.topics.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (byTarget.has(topic.path) || topic.leftAlone) continue;
    const fields = memoryFields(topic.file.frontmatter?.data ?? {});
    byTarget.set(topic.path, { title: fields.name ?? topic.path, target: topic.path, hook: fields.description ?? '', raw: '', section: '' });
  }
  const entries: Entry[] = [];
  for (const pointer of byTarget.values()) {
    const topic = state.topics.get(pointer.target);
    const fields = memoryFields(topic?.file.frontmatter?.data ?? {});
    const type = isMemoryType(fields.type) ? fields.type : (topic?.leftAlone && typeFromFileName(pointer.target)) || 'other';
    if (topic?.leftAlone) {
      // Its pointer (and any detail lines under it) stays exactly as written.
      entries.push({ type, section: pointer.section, line: [pointer.raw, ...(state.detailsKept.get(pointer.target) ?? [])].join('\n') });
      continue;
    }
    let line = pointer.raw && pointer.raw.length <= maxLine ? pointer.raw : renderPointer({ title: pointer.title, target: encodeURI(pointer.target), hook: pointer.hook });
    if (line.length > maxLine) {
      line = renderPointer({
        title: clip(pointer.title, 60),
        target: encodeURI(pointer.target),
        hook: clip(pointer.hook, Math.max(20, maxLine - 10 - clip(pointer.title, 60).length - pointer.target.length)),
      });
      // The hook text the index no longer shows must live on in the file.
      if (topic && !topic.broken && pointer.hook && !serializeTopicFile(topic.file).includes(pointer.hook)) {
        const hook = type === 'project' ? rewriteDates(state, topic.path, pointer.hook, { date: topic.anchor, source: topic.anchorSource }) : pointer.hook;
        const eol = topic.file.eol;
        topic.file = withBody(topic.file, `${topic.file.body.replace(/\s*$/, '')}${eol}${eol}${hook}${eol}`);
      }
    }
    entries.push({ type, section: pointer.section, line });
  }
  return entries;
}

/** Entries grouped by section, sections in order of first appearance (stable within a section). */
function orderBySection<T extends { section: string }>(entries: T[]): T[] {
  const bySection = new Map<string, T[]>();
  for (const e of entries) bySection.set(e.section, [...(bySection.get(e.section) ?? []), e]);
  return [...bySection.values()].flat();
}

function indexStats(text: string): IndexStats {
  const index = parseMemoryIndex(text);
  const truncated = truncateIndex(text);
  return {
    lines: text === '' ? 0 : text.replace(/\n$/, '').split('\n').length,
    bytes: Buffer.byteLength(text),
    pointers: index.lines.filter((l) => l.kind === 'pointer').length,
    inlineLines: index.lines.filter((l) => l.kind !== 'pointer' && l.kind !== 'heading' && l.kind !== 'blank').length,
    complete: !truncated.wasLineTruncated && !truncated.wasByteTruncated,
  };
}
