import fs from 'node:fs';
import path from 'node:path';
import { IoError } from '../core/errors.js';
import { STATE_DIR } from '../core/taxonomy.js';
import { writeFileAtomic } from '../store/atomic.js';
import { makeStateDir } from '../store/lock.js';
import type { FileStamp } from '../store/stat-walk.js';
import { DOC_FIELDS, DOCUMENT_VERSION, type RecallDoc } from './document.js';

/**
 * The persistent recall index, `.memdir/recall-index.json`: per topic file,
 * the stamp it had when read and `documentFor`'s output for it (null for a
 * file recall cannot read). A cache and nothing more: missing,
 * corrupt or of another version, it is rebuilt; it is replaced atomically,
 * so concurrent hooks each read a whole file, and the last writer wins.
 */
export const RECALL_INDEX_FILE = 'recall-index.json';
/** The layout of this file; DOCUMENT_VERSION covers what the documents hold. */
const INDEX_FORMAT = 3;

export interface IndexEntry {
  stamp: FileStamp;
  doc: RecallDoc | null;
}

interface StoredIndex {
  format: number;
  documentVersion: number;
  /** relative path → [size, mtimeMs, ctimeMs, ino, document] */
  files: Record<string, [number, number, number, number, RecallDoc | null]>;
}

export function recallIndexPath(dir: string): string {
  return path.join(dir, STATE_DIR, RECALL_INDEX_FILE);
}

/** The entries of the stored index; empty when there is none or it cannot be trusted. */
export function readRecallIndex(dir: string): Map<string, IndexEntry> {
  const entries = new Map<string, IndexEntry>();
  let stored: StoredIndex;
  try {
    stored = JSON.parse(fs.readFileSync(recallIndexPath(dir), 'utf8')) as StoredIndex;
  } catch {
    return entries;
  }
  if (stored?.format !== INDEX_FORMAT || stored.documentVersion !== DOCUMENT_VERSION || typeof stored.files !== 'object' || stored.files === null) return entries;
  for (const [rel, value] of Object.entries(stored.files)) {
    // A malformed entry is dropped (its file is read again), never trusted.
    if (!Array.isArray(value) || value.length !== 5) continue;
    const [size, mtimeMs, ctimeMs, ino, doc] = value;
    if (typeof size !== 'number' || typeof mtimeMs !== 'number' || typeof ctimeMs !== 'number' || typeof ino !== 'number') continue;
    if (doc !== null && !looksLikeDocument(doc, rel)) continue;
    entries.set(rel, { stamp: { size, mtimeMs, ctimeMs, ino }, doc });
  }
  return entries;
}

/** The checks that keep a damaged entry from reaching the ranker; the version covers the rest of the shape. */
function looksLikeDocument(doc: RecallDoc, rel: string): boolean {
  return (
    typeof doc === 'object' &&
    doc.path === rel &&
    typeof doc.terms === 'object' &&
    doc.terms !== null &&
    typeof doc.lengths === 'object' &&
    doc.lengths !== null &&
    DOC_FIELDS.every((field) => typeof doc.terms[field] === 'string' && typeof doc.lengths[field] === 'number')
  );
}

/**
 * Store the entries; false when the directory cannot take it (read-only,
 * full): recall then works without an index, and `.memdir/` is only
 * created where writing is allowed.
 */
export function writeRecallIndex(dir: string, entries: Map<string, IndexEntry>): boolean {
  const files: StoredIndex['files'] = {};
  for (const [rel, { stamp, doc }] of entries) {
    files[rel] = [stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino, doc];
  }
  try {
    makeStateDir(dir);
    writeFileAtomic(recallIndexPath(dir), asciiJson({ format: INDEX_FORMAT, documentVersion: DOCUMENT_VERSION, files } satisfies StoredIndex), {
      durable: false, // a cache: lost or torn after a crash, it is ignored and rebuilt
    });
    return true;
  } catch (error) {
    if (error instanceof IoError) return false;
    throw error;
  }
}

/**
 * JSON with every non-ASCII character escaped (`\u00e9`): the prompt hook reads the index on every
 * prompt, and an ASCII file decodes several times faster than one with a single accent or CJK term
 * (Node's one-byte fast path), so real memories' indexes pay ~1.5 ms less per prompt.
 */
function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  // One native pass finds an all-ASCII text (every generated or English-only index): no escaping to do.
  if (Buffer.byteLength(json) === json.length && !json.includes('\u007f')) return json;
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
