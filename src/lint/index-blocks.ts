import type { ContentKind, IndexLine, MemoryIndex } from '../core/memory-index.js';

/** A run of content lines in MEMORY.md (headings and blank lines inside it included), 1-based, inclusive. */
export interface InlineBlock {
  start: number;
  end: number;
  kinds: ContentKind[];
}

const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** At most this many lines of notes before the first pointer or section are a preamble, not content. */
const FRONT_NOTE_LINES = 5;

/** Lines of whole-line HTML comments (also across lines). */
function layoutComments(lines: IndexLine[]): Set<number> {
  const comments = new Set<number>();
  let inComment = false;
  for (const line of lines) {
    const text = line.raw.trim();
    if (!inComment && line.kind !== 'code' && text.startsWith('<!--')) inComment = true;
    if (inComment) {
      comments.add(line.line);
      if (text.includes('-->')) inComment = false;
    }
  }
  return comments;
}

/** Lines that are not memory content: thematic breaks and HTML comments. */
function layoutLines(lines: IndexLine[]): Set<number> {
  const skip = layoutComments(lines);
  for (const line of lines) if (line.kind !== 'code' && THEMATIC_BREAK.test(line.raw)) skip.add(line.line);
  return skip;
}

/** The front note: a few lines of notes before the first pointer and the first `##` section. */
function frontNote(lines: IndexLine[], skip: Set<number>): Set<number> {
  const note: number[] = [];
  for (const line of lines) {
    if (line.kind === 'pointer' || (line.kind === 'heading' && line.level > 1)) break;
    if (line.kind === 'code' || line.kind === 'table') return new Set();
    if (line.kind !== 'blank' && line.kind !== 'heading' && !skip.has(line.line)) note.push(line.line);
  }
  return new Set(note.length <= FRONT_NOTE_LINES ? note : []);
}

const cache = new WeakMap<MemoryIndex, InlineBlock[]>();

/**
 * Content in the index, one block per run of it between pointers: an all-inline index is
 * one block, not one per paragraph. Thematic breaks, HTML comments and a short front note
 * are layout, not content.
 */
export function inlineBlocks(index: MemoryIndex): InlineBlock[] {
  const cached = cache.get(index);
  if (cached) return cached;
  const skip = layoutLines(index.lines);
  for (const line of frontNote(index.lines, skip)) skip.add(line);
  const blocks: InlineBlock[] = [];
  let current: InlineBlock | undefined;
  const comments = layoutComments(index.lines);
  for (const line of index.lines) {
    // A pointer or a comment ends a block: a comment often fences what it annotates.
    if (line.kind === 'pointer' || comments.has(line.line)) current = undefined;
    if (line.kind === 'pointer' || line.kind === 'blank' || line.kind === 'heading' || skip.has(line.line)) continue;
    if (!current) {
      current = { start: line.line, end: line.line, kinds: [] };
      blocks.push(current);
    }
    current.end = line.line;
    if (!current.kinds.includes(line.kind)) current.kinds.push(line.kind);
  }
  cache.set(index, blocks);
  return blocks;
}

/** Whether `line` lies inside one of the blocks (sorted by start). */
export function inBlock(blocks: InlineBlock[], line: number): boolean {
  return blocks.some((b) => b.start <= line && line <= b.end);
}
