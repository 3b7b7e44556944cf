import { anchoredRelativeDates, calendarDay, type AnchorFacts } from '../../core/dates.js';
import type { IndexLine, MemoryIndex } from '../../core/memory-index.js';
import { parseMemoryIndex } from '../../core/memory-index.js';
import { freeTopicFileName } from '../../core/paths.js';
import { messages } from '../../core/messages.js';
import { INDEX_FILE, type MemoryType } from '../../core/taxonomy.js';
import { parseTopicFile, type TopicFile } from '../../core/topic-file.js';
import { loadIndex } from '../../core/load-model.js';

/*
 * The refactor plan is built by phases (read-index, blocks, frontmatter, merge,
 * dates, split, render-index) over one PlanState; each phase is pure and
 * changes only the state. refactor runs them all; dream runs merge, dates and
 * render-index on a directory whose index it keeps.
 */

/** One file of the directory as the planner sees it. */
export interface PlanInputFile {
  text: string;
  /** When relative dates in it were written: `modified`, last commit or mtime, resolved by the caller. */
  anchor: Date;
  anchorSource: string;
  /**
   * What is known about when its text was written, for relative dates (core/dates.ts chooses the
   * trustworthy anchor; the file time alone is none). Without it the caller vouches for `anchor`.
   */
  dateFacts?: AnchorFacts;
  /**
   * Why memdir leaves this file alone (undecodable, too large, UTF-16, a symlink out): it is not
   * rewritten, merged, split or deleted, and its pointers stay as they are. `text` is '' when undecodable.
   */
  leftAlone?: string;
}

/** A model's (validated) naming of one inline block, by block number. */
export interface BlockProposal {
  name: string;
  description: string;
  type: MemoryType;
}

export interface PlanOptions {
  /** `--anchor-date`: overrides every file's own anchor. */
  anchor?: Date | undefined;
  /** `--engine claude`: names, descriptions and types for the inline blocks, by block number. */
  proposals?: ReadonlyMap<number, BlockProposal>;
  /** MEMORY.md line numbers left where they are (moving them would lose words): reported, kept in the index. */
  keepIndexLines?: ReadonlySet<number>;
}

export type Operation =
  | { kind: 'create'; path: string; type: MemoryType; source: string }
  | { kind: 'append'; path: string; lines: number; source: string }
  | { kind: 'fill-frontmatter'; path: string; fields: string[] }
  | { kind: 'quote-frontmatter'; path: string; keys: string[] }
  | { kind: 'rewrite-date'; path: string; from: string; to: string; anchor: string }
  | { kind: 'split'; path: string; parts: string[] }
  | { kind: 'merge'; into: string; from: string; similarity: number }
  | { kind: 'rewrite-index'; path: string }
  /** A pointer moved from MEMORY.md to a sub-index because the index does not fit in what the agent loads. */
  | { kind: 'demote'; path: string; into: string; reason: string }
  | { kind: 'preamble'; path: string; source: string; action: string };

export interface IndexStats {
  lines: number;
  bytes: number;
  pointers: number;
  inlineLines: number;
  /** Whether the agent loads the whole index. */
  complete: boolean;
}

export interface RefactorPlan {
  /** The inline blocks of the index that became topic files (what a model is asked to name). */
  blocks: Array<{ heading: string; text: string }>;
  operations: Operation[];
  /** Final content of every changed file; null deletes it. */
  changes: Map<string, string | null>;
  dropped: Array<{ text: string; reason: string; source: string }>;
  warnings: Array<{ path: string; message: string }>;
  before: IndexStats;
  after: IndexStats;
}

/** Pointers that fit in MEMORY.md before it becomes a two-level index (room for headings). */
export const MAX_INDEX_POINTERS = 180;
export const SUB_INDEX_SIZE = 150;
export const SUB_INDEX = /^index_(?:user|feedback|project|reference|other)(?:_\d+)?\.md$/;
export const TYPE_TITLE: Record<MemoryType | 'other', string> = { user: 'User', feedback: 'Feedback', project: 'Project', reference: 'Reference', other: 'Other' };

export interface Topic {
  path: string;
  file: TopicFile;
  originalText: string | undefined;
  anchor: Date;
  anchorSource: string;
  dateFacts: AnchorFacts;
  broken: boolean;
  leftAlone?: string;
}

export interface IndexBlock {
  heading: string;
  rawHeading: string;
  section: string;
  lines: IndexLine[];
}

/** A section path (the headings above a pointer, outermost first) as one key; '' is no section. */
export function joinSection(headings: string[]): string {
  return headings.join('\n');
}

export function splitSection(section: string): string[] {
  return section ? section.split('\n') : [];
}

export interface Pointer {
  title: string;
  target: string;
  hook: string;
  raw: string;
  /** The index headings it sat under (verbatim, joined by joinSection), or '' to group it by type. */
  section: string;
}

/** What the phases share while a plan is built. */
export interface PlanState {
  files: Map<string, PlanInputFile>;
  options: PlanOptions;
  operations: Operation[];
  dropped: RefactorPlan['dropped'];
  warnings: RefactorPlan['warnings'];
  indexText: string;
  parsedIndex: MemoryIndex;
  indexAnchor: { date: Date; source: string };
  /** When the index's text was written, for relative dates in the blocks that leave it. */
  indexFacts: AnchorFacts;
  /** The index's own `# Title` line, kept on top. */
  title: string | undefined;
  /** Topic files by path: as read, then as the phases change them. */
  topics: Map<string, Topic>;
  /** Sub-index files of a two-level layout memdir wrote (rebuilt, never kept as memories). */
  subIndexes: string[];
  /** Paths in use, so new files get free names. */
  taken: Set<string>;
  pointers: Pointer[];
  /** Detail lines nested under a pointer, by its target. */
  details: Map<string, string[]>;
  /** MEMORY.md lines holding a second pointer to a file pointed to above (their text moved into `details`). */
  duplicatePointerLines: Set<number>;
  /** Files the index pointed to that do not exist and whose pointers were dropped (by dream), with the reason. */
  deadTargets: Map<string, string>;
  /** Detail lines that stay in the index (under a file left alone). */
  detailsKept: Map<string, string[]>;
  /** Inline blocks of the index: the heading they sat under, the section path their pointer goes to. */
  blocks: IndexBlock[];
  /** Blocks before the first section that are about the index itself. */
  preamble: IndexBlock[];
  /** Index lines left where they are, under their section (see PlanOptions.keepIndexLines). */
  keptLines: Array<{ section: string; raw: string; target: string | undefined }>;
  /** One short line about the index kept under its title. */
  topLine: string | undefined;
  blockTexts: RefactorPlan['blocks'];
  /** Merged-away file → the file it was merged into. */
  mergedAway: Map<string, string>;
}

/** A fresh state: the index parsed, every topic file read as it is now. */
export function createState(files: Map<string, PlanInputFile>, options: PlanOptions): PlanState {
  const indexInput = files.get(INDEX_FILE);
  const indexText = indexInput?.text ?? '';
  const state: PlanState = {
    files,
    options,
    operations: [],
    dropped: [],
    warnings: [],
    indexText,
    parsedIndex: parseMemoryIndex(indexText),
    indexAnchor: { date: options.anchor ?? new Date(0), source: 'none' },
    indexFacts: { anchorDate: options.anchor },
    title: undefined,
    topics: new Map(),
    subIndexes: [],
    taken: new Set(files.keys()),
    pointers: [],
    details: new Map(),
    detailsKept: new Map(),
    duplicatePointerLines: new Set(),
    deadTargets: new Map(),
    blocks: [],
    preamble: [],
    topLine: undefined,
    keptLines: [],
    blockTexts: [],
    mergedAway: new Map(),
  };
  if (indexInput) {
    state.indexAnchor = anchorOf(state, indexInput);
    state.indexFacts = factsOf(state, indexInput);
  }
  for (const [path, input] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (path === INDEX_FILE || path.endsWith(`/${INDEX_FILE}`)) continue;
    if (SUB_INDEX.test(path) && !input.leftAlone) {
      state.subIndexes.push(path);
      continue;
    }
    const { file, problems } = parseTopicFile(input.text);
    const anchor = anchorOf(state, input);
    // A file left alone goes through every step as one that cannot be edited.
    const broken = Boolean(input.leftAlone) || problems.some((p) => !p.lenient);
    state.topics.set(path, { path, file, originalText: input.text, anchor: anchor.date, anchorSource: anchor.source, dateFacts: factsOf(state, input), broken, leftAlone: input.leftAlone });
  }
  return state;
}

/** When a file was last changed, for merges (the newer wins): `--anchor-date`, else what the caller resolved. */
export function anchorOf(state: PlanState, input: PlanInputFile): { date: Date; source: string } {
  const forced = state.options.anchor;
  return forced ? { date: forced, source: `--anchor-date ${calendarDay(forced)}` } : { date: input.anchor, source: input.anchorSource };
}

/** What the date module needs to anchor a file's relative dates; `--anchor-date` joins them. */
function factsOf(state: PlanState, input: PlanInputFile): AnchorFacts {
  const facts = input.dateFacts ?? { sectionDate: { date: input.anchor, source: input.anchorSource } };
  return { ...facts, anchorDate: state.options.anchor ?? facts.anchorDate };
}

/** A free `type_slug.md` for a new file, reserved at once. */
export function freePath(state: PlanState, type: string, name: string): string {
  const path = freeTopicFileName(type, name, (candidate) => state.taken.has(candidate), { anyScript: true });
  state.taken.add(path);
  return path;
}

/**
 * `text` with relative dates made absolute where they have a trustworthy anchor, each rewrite
 * recorded as an operation; the others are reported and left as written.
 */
export function rewriteDates(state: PlanState, path: string, text: string, facts: AnchorFacts): string {
  let out = '';
  let at = 0;
  for (const found of anchoredRelativeDates(text, facts)) {
    if (!found.anchor) {
      state.warnings.push({ path, message: messages.untrustedDate(found.text) });
      continue;
    }
    state.operations.push({ kind: 'rewrite-date', path, from: found.text, to: found.replacement, anchor: found.anchor.source });
    out += text.slice(at, found.index) + found.replacement;
    at = found.index + found.text.length;
  }
  return out + text.slice(at);
}

/** The type a file name announces (`feedback_terse.md` → feedback). */
export function typeFromFileName(path: string): MemoryType | undefined {
  return /^(user|feedback|project|reference)_/.exec(path.replace(/^.*\//, ''))?.[1] as MemoryType | undefined;
}

export function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length;
}

/** Lines, bytes, pointers and inline lines of an index, and whether the agent loads all of it. */
export function indexStats(text: string): IndexStats {
  const index = parseMemoryIndex(text);
  const truncated = loadIndex(text);
  return {
    lines: text === '' ? 0 : text.replace(/\n$/, '').split('\n').length,
    bytes: Buffer.byteLength(text),
    pointers: index.lines.filter((l) => l.kind === 'pointer').length,
    inlineLines: index.lines.filter((l) => l.kind !== 'pointer' && l.kind !== 'heading' && l.kind !== 'blank').length,
    complete: !truncated.wasLineTruncated && !truncated.wasByteTruncated,
  };
}
