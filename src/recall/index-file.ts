import fs from 'node:fs';
import path from 'node:path';
import { IoError } from '../core/errors.js';
import { STATE_DIR } from '../core/taxonomy.js';
import { writeFileAtomic } from '../store/atomic.js';
import { makeStateDir } from '../store/lock.js';
import { statePath } from '../store/state-path.js';
import type { FileStamp } from '../store/stat-walk.js';
import { addPostings, DOC_FIELDS, DOCUMENT_VERSION, type DocField, type PostingSource, type RecallDoc } from './document.js';

/**
 * The persistent recall index, `.memdir/recall-index.jsonl`: per topic file, the stamp it had when
 * read and `documentFor`'s output for it (null for a file recall cannot read), and for every term
 * the memories holding it with their counts. A cache and nothing more: missing, corrupt or of
 * another version, it is rebuilt; it is replaced atomically, so concurrent hooks each read a whole
 * file, and the last writer wins.
 *
 * JSON lines, all ASCII, so the prompt hook can find a term's line by its bytes and parse only the
 * lines it needs (the header, its words' postings, the terms of the few memories it re-scores):
 * 1. `{"format","documentVersion","paths":[…],"types":[…],"numbers":[…]}`: per file, its path, its
 *    type (null for a file recall cannot read) and FILE_NUMBERS numbers (its stamp: size, mtimeMs,
 *    ctimeMs, ino; its document's mtimeMs; its name, description and body lengths; its terms line
 *    as a byte offset from the end of this line). Columns rather than a row per file: the prompt
 *    hook parses and checks every file's entry, and three arrays cost far less than hundreds;
 * 2. one line per file, in the same order: `[name terms, description terms, body terms]` or null;
 * 3. one line per term: `{"t":term,"p":[slot, name count, description count, body count, …]}`,
 *    slots (file numbers) ascending;
 * 4. `{"end":offset,"postings":offset}`: where this line and the postings start (a cut or
 *    lengthened file is not trusted).
 */
export const RECALL_INDEX_FILE = 'recall-index.jsonl';
/** The JSON index of earlier versions, removed when this one is written. */
const FORMER_INDEX_FILE = 'recall-index.json';
/** The layout of this file; DOCUMENT_VERSION covers what the documents hold. */
const INDEX_FORMAT = 5;
const NEWLINE = 0x0a;

export interface IndexEntry {
  stamp: FileStamp;
  doc: RecallDoc | null;
}

/** Where each number of a file is among its FILE_NUMBERS in the header's `numbers`; from `nameLength` on they are counts. */
const AT = { size: 0, mtimeMs: 1, ctimeMs: 2, ino: 3, docMtimeMs: 4, nameLength: 5, descriptionLength: 6, bodyLength: 7, termsLine: 8 } as const;
const FILE_NUMBERS = 9;

/** A stored index found damaged while it was being read lazily: the caller reads the files instead. */
export class StaleIndexError extends Error {
  constructor(problem: string) {
    super(`recall index: ${problem}`);
  }
}

export function recallIndexPath(dir: string): string {
  return path.join(dir, STATE_DIR, RECALL_INDEX_FILE);
}

/** The stored index, opened without reading its documents or postings; undefined when there is none or it cannot be trusted. */
export function openRecallIndex(dir: string): StoredIndex | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(recallIndexPath(dir));
  } catch {
    return undefined;
  }
  try {
    return new StoredIndex(bytes);
  } catch {
    return undefined;
  }
}

/**
 * One stored index file: its files and their stamps parsed at once, everything else on demand.
 * Only damage found later throws (StaleIndexError), from `terms` or `postings`.
 */
export class StoredIndex implements PostingSource {
  /** Each file's path, by slot. */
  readonly paths: readonly string[];
  /** Each file's document (null: a file recall cannot read), by slot. */
  readonly docs: Array<StoredDoc | null> = [];
  private readonly numbers: readonly number[];
  private readonly postingsStart: number;
  private readonly end: number;
  /** Byte offset of each file's terms line. */
  private readonly lineStarts: number[] = [];

  constructor(private readonly bytes: Buffer) {
    const headerEnd = bytes.indexOf(NEWLINE);
    const trailerStart = bytes.lastIndexOf(NEWLINE, bytes.length - 2) + 1;
    if (headerEnd < 0 || bytes[bytes.length - 1] !== NEWLINE || trailerStart <= headerEnd) throw new StaleIndexError('not whole');
    const trailer = JSON.parse(bytes.toString('utf8', trailerStart, bytes.length - 1)) as { end?: unknown; postings?: unknown };
    if (trailer.end !== trailerStart || typeof trailer.postings !== 'number' || trailer.postings > trailerStart) throw new StaleIndexError('not whole');
    this.postingsStart = trailer.postings - 1; // at the newline before the first postings line
    this.end = trailerStart;
    const header = JSON.parse(bytes.toString('utf8', 0, headerEnd)) as { format?: unknown; documentVersion?: unknown; paths?: unknown; types?: unknown; numbers?: unknown };
    if (header.format !== INDEX_FORMAT || header.documentVersion !== DOCUMENT_VERSION) throw new StaleIndexError('another version');
    const { paths, types, numbers } = header;
    if (!Array.isArray(paths) || !Array.isArray(types) || !Array.isArray(numbers) || types.length !== paths.length || numbers.length !== paths.length * FILE_NUMBERS) {
      throw new StaleIndexError('a malformed file entry');
    }
    // Plain loops over the columns, no destructuring: the prompt hook checks every file's entry.
    for (let slot = 0; slot < paths.length; slot++) {
      const type: unknown = types[slot];
      if (typeof paths[slot] !== 'string' || (type !== null && typeof type !== 'string')) throw new StaleIndexError('a malformed file entry');
      const at = slot * FILE_NUMBERS;
      for (let k = at; k < at + AT.nameLength; k++) if (typeof numbers[k] !== 'number') throw new StaleIndexError('a malformed file entry');
      for (let k = at + AT.nameLength; k < at + FILE_NUMBERS; k++) if (!isCount(numbers[k])) throw new StaleIndexError('a malformed file entry');
      const lineStart = headerEnd + 1 + (numbers[at + AT.termsLine] as number);
      if (lineStart >= this.postingsStart + 1) throw new StaleIndexError('a file without its terms');
      this.lineStarts.push(lineStart);
      const lengths = { name: numbers[at + AT.nameLength] as number, description: numbers[at + AT.descriptionLength] as number, body: numbers[at + AT.bodyLength] as number };
      this.docs.push(type === null ? null : new StoredDoc(paths[slot] as string, type as string, numbers[at + AT.docMtimeMs] as number, lengths, this, slot));
    }
    this.paths = paths as string[];
    this.numbers = numbers as number[];
  }

  /** The stamp the file in `slot` had when it was read. */
  stampAt(slot: number): FileStamp {
    const at = slot * FILE_NUMBERS;
    const numbers = this.numbers;
    return { size: numbers[at + AT.size]!, mtimeMs: numbers[at + AT.mtimeMs]!, ctimeMs: numbers[at + AT.ctimeMs]!, ino: numbers[at + AT.ino]! };
  }

  /** Whether `files` (sorted by path) are exactly the stored files, each with the stamp it had when read. */
  isCurrent(files: ReadonlyArray<{ path: string; stamp: FileStamp }>): boolean {
    if (files.length !== this.paths.length) return false;
    const numbers = this.numbers;
    for (let slot = 0; slot < files.length; slot++) {
      const { path: rel, stamp } = files[slot]!;
      const at = slot * FILE_NUMBERS;
      if (
        rel !== this.paths[slot] ||
        stamp.size !== numbers[at + AT.size] ||
        stamp.mtimeMs !== numbers[at + AT.mtimeMs] ||
        stamp.ctimeMs !== numbers[at + AT.ctimeMs] ||
        stamp.ino !== numbers[at + AT.ino]
      )
        return false;
    }
    return true;
  }

  /** The terms of the file in `slot`, one string per field. */
  termsAt(slot: number): Record<DocField, string> {
    const value = parseLine(this.bytes, this.lineStarts[slot]!);
    if (!Array.isArray(value) || value.length !== 3 || !value.every((terms) => typeof terms === 'string')) throw new StaleIndexError('malformed terms');
    const [name, description, body] = value as string[];
    return { name: name!, description: description!, body: body! };
  }

  postings(term: string): readonly number[] {
    // A term's line is found by its bytes: `{"t":` opens postings lines only, and a term holds no quote unescaped.
    const at = this.bytes.indexOf(`\n{"t":${asciiJson(term)},`, this.postingsStart);
    if (at < 0 || at >= this.end) return NO_POSTINGS;
    const line = parseLine(this.bytes, at + 1) as { p?: unknown };
    const flat = line.p;
    if (!Array.isArray(flat) || flat.length % 4 !== 0) throw new StaleIndexError('malformed postings for a term');
    for (let i = 0; i < flat.length; i += 4) {
      const slot = flat[i];
      const ordered = Number.isInteger(slot) && slot >= 0 && slot < this.paths.length && (i === 0 || slot > flat[i - 4]);
      if (!ordered || !isCount(flat[i + 1]) || !isCount(flat[i + 2]) || !isCount(flat[i + 3])) throw new StaleIndexError('malformed postings for a term');
    }
    return flat as number[];
  }

  /** Every entry with its document read in full; one whose terms cannot be read is left out (its file is read again). */
  entries(): Map<string, IndexEntry> {
    const entries = new Map<string, IndexEntry>();
    for (let slot = 0; slot < this.paths.length; slot++) {
      const doc = this.docs[slot]!;
      try {
        entries.set(this.paths[slot]!, { stamp: this.stampAt(slot), doc: doc && { path: doc.path, type: doc.type, mtimeMs: doc.mtimeMs, terms: doc.terms, lengths: doc.lengths } });
      } catch (error) {
        if (!(error instanceof StaleIndexError)) throw error;
      }
    }
    return entries;
  }

  get slots(): number {
    return this.paths.length;
  }

  slotOf(doc: RecallDoc): number | undefined {
    return doc instanceof StoredDoc && doc.index === this ? doc.slot : undefined;
  }
}

const NO_POSTINGS: readonly number[] = [];

/** A document of a stored index: its terms are parsed from the file when first asked for. */
class StoredDoc implements RecallDoc {
  private parsed: Record<DocField, string> | undefined;

  constructor(
    readonly path: string,
    readonly type: string,
    readonly mtimeMs: number,
    readonly lengths: Record<DocField, number>,
    readonly index: StoredIndex,
    readonly slot: number,
  ) {}

  get terms(): Record<DocField, string> {
    this.parsed ??= this.index.termsAt(this.slot);
    return this.parsed;
  }
}

function parseLine(bytes: Buffer, start: number): unknown {
  const end = bytes.indexOf(NEWLINE, start);
  try {
    return JSON.parse(bytes.toString('utf8', start, end < 0 ? bytes.length : end));
  } catch {
    throw new StaleIndexError('a line that is not JSON');
  }
}

const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

/** Every entry of the stored index, documents read in full; empty when there is none or it cannot be trusted. */
export function readRecallIndex(dir: string): Map<string, IndexEntry> {
  return openRecallIndex(dir)?.entries() ?? new Map();
}

/**
 * Store the entries; false when the directory cannot take it (read-only,
 * full): recall then works without an index, and `.memdir/` is only
 * created where writing is allowed.
 */
export function writeRecallIndex(dir: string, entries: Map<string, IndexEntry>): boolean {
  const paths: string[] = [];
  const types: Array<string | null> = [];
  const numbers: number[] = [];
  const termLines: string[] = [];
  const postings = new Map<string, number[]>();
  let line = 0;
  for (const [rel, { stamp, doc }] of entries) {
    const slot = paths.length;
    const terms = doc ? asciiJson(DOC_FIELDS.map((field) => doc.terms[field])) : 'null';
    paths.push(rel);
    types.push(doc?.type ?? null);
    numbers.push(stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino, doc?.mtimeMs ?? 0, doc?.lengths.name ?? 0, doc?.lengths.description ?? 0, doc?.lengths.body ?? 0, line);
    termLines.push(terms);
    line += terms.length + 1;
    if (doc) addPostings(doc, slot, postings);
  }
  const head = `${asciiJson({ format: INDEX_FORMAT, documentVersion: DOCUMENT_VERSION, paths, types, numbers })}\n${termLines.map((terms) => `${terms}\n`).join('')}`;
  const lines: string[] = [];
  for (const [term, flat] of postings) lines.push(`{"t":${JSON.stringify(term)},"p":[${flat.join(',')}]}\n`);
  // Escaped once for all terms: nearly every term of an English memory is ASCII already.
  const body = ascii(lines.join(''));
  const postingsAt = head.length;
  const end = postingsAt + body.length;
  try {
    makeStateDir(dir);
    writeFileAtomic(statePath(dir, RECALL_INDEX_FILE), `${head}${body}${JSON.stringify({ end, postings: postingsAt })}\n`, {
      durable: false, // a cache: lost or torn after a crash, it is ignored and rebuilt
    });
    fs.rmSync(path.join(dir, STATE_DIR, FORMER_INDEX_FILE), { force: true });
    return true;
  } catch (error) {
    if (error instanceof IoError) return false;
    throw error;
  }
}

/**
 * JSON with every non-ASCII character escaped (`\u00e9`): the file is ASCII, so a term's line is found
 * by its bytes, and an ASCII text decodes several times faster than one with a single accent or CJK term.
 */
function asciiJson(value: unknown): string {
  return ascii(JSON.stringify(value));
}

/** JSON text with its non-ASCII characters escaped. */
function ascii(json: string): string {
  // One native pass finds an all-ASCII text (every generated or English-only index): no escaping to do.
  if (Buffer.byteLength(json) === json.length && !json.includes('\u007f')) return json;
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
