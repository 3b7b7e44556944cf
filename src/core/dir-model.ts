import { calendarDay } from './dates.js';
import { type LoadedIndex, loadIndex } from './load-model.js';
import { parseMemoryIndex, type MemoryIndex } from './memory-index.js';
import { memoryFields, parseTopicFile, type MemoryFields, type ParseProblem, type TopicFile } from './topic-file.js';
import { messages } from './messages.js';
import { INDEX_FILE } from './taxonomy.js';

/**
 * The memory directory as every feature reads it (docs/architecture.md#memory-directory): the index and
 * topic files as parsed text, plus what the reader learned about the rest
 * (paths present, escaping symlinks, files left alone). Pure: built from
 * text that src/store/dir-reader.ts reads.
 */

/** A file of the directory as rules see it. */
export interface SourceFile {
  path: string;
  text: string;
  mtimeMs: number;
  /** Last commit time when the file is tracked and unmodified. */
  commitTimeMs?: number | undefined;
  /** Offsets where each line starts (line n starts at lineStarts[n - 1]). */
  lineStarts: number[];
}

export interface TopicSource extends SourceFile {
  topic: TopicFile;
  problems: ParseProblem[];
  fields: MemoryFields;
}

export interface IndexSource extends SourceFile {
  index: MemoryIndex;
  /** What the agent loads of it (made on first use: most rules never ask). */
  readonly load: LoadedIndex;
}

/** A memory directory parsed for linting: pure data, no I/O behind it. */
export interface MemoryDirModel {
  root: string;
  index: IndexSource | undefined;
  topics: TopicSource[];
  /** Every file present (relative paths), for pointer checks. */
  files: ReadonlySet<string>;
  /** Symlinks whose target leaves the directory. */
  escapingLinks: ReadonlySet<string>;
  /** Files memdir leaves alone (not decodable as text, or too large), with the reason. */
  unreadable: Array<{ path: string; message: string }>;
  /** Files decoded for reading that memdir never writes back (UTF-16), with the reason: no fix targets them. */
  readOnly: ReadonlyMap<string, string>;
  /** Files tracked in the project repository (relative to its root), for derivable-content checks. */
  repoFiles: ReadonlySet<string>;
  /** The user's configured git e-mail (their own address is not third-party personal data). */
  userEmail: string | undefined;
  skipIndex: boolean;
}

export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** A source file whose line table is computed on first use: most files never need a position. */
function sourceFile(path: string, text: string, mtimeMs: number, commitTimeMs: number | undefined): SourceFile {
  let starts: number[] | undefined;
  return {
    path,
    text,
    mtimeMs,
    commitTimeMs,
    get lineStarts() {
      starts ??= lineStarts(text);
      return starts;
    },
  };
}

/** 1-based line and column of an offset. */
export function position(source: SourceFile, offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = source.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (source.lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - source.lineStarts[lo]! + 1 };
}

/** Line of a top-level frontmatter key (`description:`), or 1. */
export function fieldLine(source: SourceFile, key: string): number {
  const at = source.text.search(fieldPattern(key));
  return at === -1 ? 1 : position(source, at).line;
}

const fieldPatterns = new Map<string, RegExp>();
function fieldPattern(key: string): RegExp {
  let pattern = fieldPatterns.get(key);
  if (!pattern) {
    pattern = new RegExp(`^[ \\t]*${key}[ \\t]*:`, 'm');
    fieldPatterns.set(key, pattern);
  }
  return pattern;
}

/** Offsets of line `line` (1-based) including its line break, for deleting it. */
export function lineRange(source: SourceFile, line: number): { start: number; end: number } {
  const start = source.lineStarts[line - 1] ?? source.text.length;
  const end = source.lineStarts[line] ?? source.text.length;
  return { start, end };
}

/** The raw text of one memory directory, as read from disk or from git's index. */
export interface RawDirectory {
  root: string;
  files: Map<string, { text: string; mtimeMs: number }>;
  /** Every path present, including non-Markdown files. */
  present: Set<string>;
  escapingLinks: Set<string>;
  /** Files memdir leaves alone (undecodable, too large), with the reason: never rewritten or dropped. */
  unreadable: Array<{ path: string; message: string }>;
  /** Files decoded for reading but never written back (UTF-16), with the reason. */
  readOnly: Map<string, string>;
  repoFiles: Set<string>;
  /** Last commit time of tracked, unmodified files (anchors relative dates better than a checkout's mtime). */
  commitTimes: Map<string, number>;
  /** The user's configured git e-mail, when the directory is in a repository. */
  userEmail?: string;
}

/** Parse raw text into the model rules read. Pure. */
export function buildModel(raw: RawDirectory, options: { skipIndex: boolean }): MemoryDirModel {
  let index: IndexSource | undefined;
  const topics: TopicSource[] = [];
  for (const [path, { text, mtimeMs }] of raw.files) {
    const base = sourceFile(path, text, mtimeMs, raw.commitTimes.get(path));
    if (path === INDEX_FILE) {
      let load: LoadedIndex | undefined;
      index = Object.defineProperty(Object.assign(base, { index: parseMemoryIndex(text) }), 'load', { get: () => (load ??= loadIndex(text)), enumerable: false }) as IndexSource;
      continue;
    }
    if (path.endsWith(`/${INDEX_FILE}`)) continue; // a nested index (team/) is linted as its own directory
    const { file, problems } = parseTopicFile(text);
    // Object.assign, not spread: spreading would evaluate the lazy line table.
    topics.push(Object.assign(base, { topic: file, problems, fields: memoryFields(file.frontmatter?.data ?? {}) }));
  }
  topics.sort((a, b) => a.path.localeCompare(b.path));
  return {
    root: raw.root,
    index,
    topics,
    files: raw.present,
    escapingLinks: raw.escapingLinks,
    unreadable: raw.unreadable,
    readOnly: raw.readOnly,
    repoFiles: raw.repoFiles,
    userEmail: raw.userEmail,
    skipIndex: options.skipIndex,
  };
}

/** Anchor for relative dates: frontmatter `modified`, else the last commit of a clean tracked file, else mtime. */
export function anchorDate(topic: TopicSource): { date: Date; source: string } {
  const modified = topic.topic.frontmatter?.data.modified;
  const parsed = modified instanceof Date ? modified : typeof modified === 'string' ? new Date(modified) : undefined;
  if (parsed && !Number.isNaN(parsed.getTime())) {
    // YAML dates are UTC midnight; use the same calendar day locally.
    const local = new Date(parsed.getUTCFullYear(), parsed.getUTCMonth(), parsed.getUTCDate(), 12);
    return { date: local, source: `modified: ${calendarDay(local)}` };
  }
  if (topic.commitTimeMs !== undefined) {
    const date = new Date(topic.commitTimeMs);
    return { date, source: `last commit ${calendarDay(date)}` };
  }
  const date = new Date(topic.mtimeMs);
  return { date, source: `file time ${calendarDay(date)}` };
}

export function emptyRawDirectory(root: string): RawDirectory {
  return { root, files: new Map(), present: new Set(), escapingLinks: new Set(), unreadable: [], readOnly: new Map(), repoFiles: new Set(), commitTimes: new Map() };
}

/** A RawDirectory from in-memory files (rule examples, library callers, tests). */
export function rawDirectory(root: string, files: Record<string, string>, mtimeMs = Date.UTC(2026, 0, 1)): RawDirectory {
  const raw = emptyRawDirectory(root);
  for (const [path, text] of Object.entries(files)) {
    raw.present.add(path);
    if (!path.endsWith('.md')) continue;
    if (text.includes('\u0000')) raw.unreadable.push({ path, message: messages.binaryFile() });
    else raw.files.set(path, { text, mtimeMs });
  }
  return raw;
}
