import { classifyPointerTarget, parseMemoryIndex, pointerPath, type IndexLine } from '../../core/memory-index.js';
import { INDEX_FILE } from '../../core/taxonomy.js';
import { parseTopicFile } from '../../core/topic-file.js';
import { plainText, tableRowPointer } from '../classify.js';
import { type IndexBlock, joinSection, SUB_INDEX, TYPE_TITLE, type PlanState, type Pointer } from './state.js';

const TYPE_TITLES = new Set(Object.values(TYPE_TITLE));

/** A thematic break (`---`, `***`): layout, no words. */
export const RULE_LINE = /^\s*(?:[-*_][ \t]*){3,}$/;

/**
 * Phase 1: read MEMORY.md (and the sub-indexes of a two-level layout, their
 * headings and pointers only) into pointers, the detail lines nested under
 * them, and the inline blocks of each section. Every heading starts a block;
 * the headings above it are its section path, so a `## Section` holding only
 * `### Sub-sections` keeps its heading in the new index. Text before the first
 * section that is about the index itself is its preamble, not a memory.
 */
export function readIndex(state: PlanState): void {
  const seenTargets = new Set<string>();
  let path: Array<{ level: number; text: string }> = [];
  let lastPointer: Pointer | undefined;
  let block: PlanState['blocks'][number] | undefined;
  const documents = [state.parsedIndex.lines];
  for (const sub of state.subIndexes) {
    documents.push(parseMemoryIndex(parseTopicFile(state.files.get(sub)!.text).file.body).lines.filter((l) => l.kind === 'pointer' || l.kind === 'heading'));
  }
  const sectionOf = (headings: typeof path) => {
    const texts = headings.map((h) => h.text);
    // memdir's own per-type headings group by type again; they are not sections of the user's.
    return texts.length === 1 && TYPE_TITLES.has(plainText(texts[0]!)) ? '' : joinSection(texts);
  };
  // A heading with nothing under it stays in the index as an empty section (its words are kept).
  let emptyHeading: typeof path | undefined;
  const keepEmptyHeading = (next?: { level: number }) => {
    if (emptyHeading && (!next || next.level <= emptyHeading[emptyHeading.length - 1]!.level)) {
      state.keptLines.push({ section: joinSection(emptyHeading.map((h) => h.text)), raw: '', target: undefined });
    }
    emptyHeading = undefined;
  };
  const tableRows = pointerTables(state);
  for (const [number, lines] of documents.entries()) {
    if (number > 0) {
      keepEmptyHeading();
      path = [];
      block = undefined;
      lastPointer = undefined;
    }
    for (const line of lines) {
      if (line.kind !== 'blank' && line.kind !== 'heading') emptyHeading = undefined;
      if (number === 0 && state.options.keepIndexLines?.has(line.line) && line.kind !== 'blank' && line.kind !== 'heading') {
        // Left where it is, as written: moving it would lose words (reported as left for you).
        const target = line.kind === 'pointer' ? pointerPath(line.target) : undefined;
        state.keptLines.push({ section: sectionOf(path), raw: line.raw, target });
        if (target) seenTargets.add(target);
        state.warnings.push({ path: `${INDEX_FILE}:${line.line}`, message: 'left in the index: moving this line would lose words' });
        block = undefined;
        lastPointer = undefined;
        continue;
      }
      if (line.kind === 'heading') {
        if (line.level === 1 && state.title === undefined && state.pointers.length === 0 && state.blocks.length === 0 && number === 0) {
          state.title = line.raw;
          continue;
        }
        keepEmptyHeading(line);
        path = [...path.filter((h) => h.level < line.level), { level: line.level, text: line.text }];
        if (number === 0 && state.options.keepIndexLines?.has(line.line)) {
          // Its section stays even when everything under it moves out: dropping the heading would lose words.
          state.keptLines.push({ section: joinSection(path.map((h) => h.text)), raw: '', target: undefined });
          state.warnings.push({ path: `${INDEX_FILE}:${line.line}`, message: 'left in the index: removing this heading would lose words' });
        }
        emptyHeading = path;
        block = undefined;
        lastPointer = undefined;
        continue;
      }
      if (line.kind === 'blank') {
        if (path.length === 0) block = undefined;
        else block?.lines.push(line);
        continue;
      }
      const row = number === 0 ? tableRows.get(line.line) : undefined;
      if (row === null) {
        state.dropped.push({ text: line.raw, reason: 'the header of a table of pointers, now one pointer per line', source: `${INDEX_FILE}:${line.line}` });
        continue;
      }
      // A row of a table of pointers is read as the pointer it is.
      const asPointer = row ? { title: row.title, target: row.target, hook: row.cells.join(' — '), raw: '' } : line.kind === 'pointer' ? line : undefined;
      if (asPointer && classifyPointerTarget(asPointer.target).kind !== 'external') {
        const target = pointerPath(asPointer.target);
        lastPointer = undefined;
        block = undefined;
        if (SUB_INDEX.test(target)) continue; // the second level is rebuilt from the pointers it holds
        if (seenTargets.has(target)) {
          // A second pointer to the same file: what it says moves into that file, like a detail line.
          const said = [plainText(asPointer.title), asPointer.hook].filter(Boolean).join(' — ');
          if (said) state.details.set(target, [...(state.details.get(target) ?? []), `- ${said}`]);
          if (number === 0) state.duplicatePointerLines.add(line.line);
          continue;
        }
        seenTargets.add(target);
        const pointer = { title: asPointer.title, target, hook: asPointer.hook, raw: asPointer.raw, section: sectionOf(path) };
        state.pointers.push(pointer);
        lastPointer = pointer;
        continue;
      }
      if (lastPointer && line.kind === 'list' && /^\s+/.test(line.raw)) {
        state.details.set(lastPointer.target, [...(state.details.get(lastPointer.target) ?? []), line.raw]);
        continue;
      }
      lastPointer = undefined;
      if (!block) {
        const own = path[path.length - 1];
        // A sub-section's pointer goes under its parent's heading; a top section's under its own.
        const parents = path.length > 1 ? path.slice(0, -1) : path;
        block = { heading: own ? plainText(own.text) : '', rawHeading: own?.text ?? '', section: sectionOf(parents), lines: [] };
        state.blocks.push(block);
      }
      block.lines.push(line);
    }
  }
  keepEmptyHeading();
  trimRules(state);
  separatePreamble(state);
  splitHeadlessLists(state);
}

/**
 * Tables of the index whose every row links one topic file are pointers written as a table: each
 * row (by line number) read as a pointer, the header and its separator as null (dropped, reported).
 */
function pointerTables(state: PlanState): Map<number, ReturnType<typeof tableRowPointer> | null> {
  const rows = new Map<number, ReturnType<typeof tableRowPointer> | null>();
  const lines = state.parsedIndex.lines;
  for (let start = 0; start < lines.length; start++) {
    if (lines[start]!.kind !== 'table' || lines[start - 1]?.kind === 'table') continue;
    let end = start;
    while (lines[end + 1]?.kind === 'table') end++;
    const body = lines.slice(start + 2, end + 1).map((l) => ({ line: l.line, row: tableRowPointer(l.raw) }));
    const separated = /^\s*\|?\s*:?-{3,}/.test(lines[start + 1]?.raw ?? '');
    if (!separated || body.length === 0 || !body.every(({ row }) => row && state.topics.has(pointerPath(row.target)))) continue;
    rows.set(lines[start]!.line, null).set(lines[start + 1]!.line, null);
    for (const { line, row } of body) rows.set(line, row);
  }
  return rows;
}

/**
 * A list with no heading above it is a list of separate facts ("- the staging DB is reset on
 * Mondays", "- use pnpm"): each top-level item becomes its own block, its nested lines with it.
 * Under a heading, the heading names what the items share, so they stay one memory.
 */
function splitHeadlessLists(state: PlanState): void {
  state.blocks = state.blocks.flatMap((b) => {
    if (b.rawHeading !== '') return [b];
    const content = b.lines.filter((l) => l.kind !== 'blank');
    const topLevel = content.filter((l) => /^\S/.test(l.raw));
    if (topLevel.length < 2 || topLevel.some((l) => l.kind !== 'list') || content[0] !== topLevel[0]) return [b];
    const items: IndexBlock[] = [];
    for (const line of b.lines) {
      if (line.kind === 'list' && /^\S/.test(line.raw)) items.push({ ...b, lines: [line] });
      else items[items.length - 1]!.lines.push(line);
    }
    for (const item of items) while (item.lines[item.lines.length - 1]!.kind === 'blank') item.lines.pop();
    return items;
  });
}

const ABOUT_THE_INDEX =
  /\b(?:memor(?:y|ies)|index|MEMORY\.md|topic files?|this (?:file|directory|folder)|pointers?|one line per|(?:last )?(?:updated|synced))\b|记忆|索引|更新|同步|メモリ|インデックス|메모리|인덱스|업데이트/i;

/** A section on how the memory is kept ("Memory types", "How to use this index"). */
const CONVENTIONS_HEADING = /\b(?:memory|memories|index)\b.*\b(?:types?|conventions?|format|usage|instructions?|how to)\b|\bhow to\b.*\b(?:memory|memories|index)\b/i;

/**
 * Text about the index itself is its preamble, not a memory: what stands
 * before the first heading and speaks of the index or the directory (how to
 * add a memory, when it was updated), and sections that hold nothing but an
 * editor's comment (a template's "<!-- Claude fills this in -->").
 */
function separatePreamble(state: PlanState): void {
  const isPreamble = (b: IndexBlock) => {
    const text = b.lines.map((l) => l.raw).join('\n');
    const commentOnly = text.includes('<!--') && !/[\p{L}\p{N}]/u.test(text.replace(/<!--[\s\S]*?(?:-->|$)/g, ''));
    return commentOnly || (b.rawHeading === '' && b.section === '' && ABOUT_THE_INDEX.test(text)) || CONVENTIONS_HEADING.test(plainText(b.rawHeading));
  };
  state.preamble = state.blocks.filter(isPreamble);
  state.blocks = state.blocks.filter((b) => !isPreamble(b));
}

/** Rules around a block separate sections: dropped (reported), so no memory starts or ends with one. */
function trimRules(state: PlanState): void {
  for (const b of state.blocks) {
    const isEdge = (l: IndexLine) => l.kind === 'blank' || (l.kind === 'paragraph' && RULE_LINE.test(l.raw));
    while (b.lines.length && isEdge(b.lines[b.lines.length - 1]!)) drop(state, b.lines.pop()!);
    while (b.lines.length && isEdge(b.lines[0]!)) drop(state, b.lines.shift()!);
  }
  state.blocks = state.blocks.filter((b) => b.lines.length > 0);
}

function drop(state: PlanState, line: IndexLine): void {
  if (line.kind !== 'blank') state.dropped.push({ text: line.raw, reason: 'a horizontal rule between sections', source: `${INDEX_FILE}:${line.line}` });
}
