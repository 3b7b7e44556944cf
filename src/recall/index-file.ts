import fs from 'node:fs';
import path from 'node:path';
import { IoError } from '../core/errors.js';
import { STATE_DIR } from '../core/taxonomy.js';
import { writeFileAtomic } from '../store/atomic.js';
import { makeStateDir } from '../store/lock.js';
import type { FileStamp } from '../store/stat-walk.js';
import { DOC_FIELDS, type DocField, DOCUMENT_VERSION, type RecallDoc } from './document.js';

/**
 * The persistent recall index, `.memdir/recall-index.json`: per topic file,
 * the stamp it had when read and `documentFor`'s output for it (terms space-joined)
 * (null for a file recall cannot read). A cache and nothing more: missing,
 * corrupt or of another version, it is rebuilt; it is replaced atomically,
 * so concurrent hooks each read a whole file, and the last writer wins.
 */
export const RECALL_INDEX_FILE = 'recall-index.json';
/** The layout of this file; DOCUMENT_VERSION covers what the documents hold. */
const INDEX_FORMAT = 2;

export interface IndexEntry {
  stamp: FileStamp;
  doc: RecallDoc | null;
}

/**
 * A document as stored: each field's terms joined by spaces (terms never hold
 * whitespace), which JSON parses several times faster than arrays of strings.
 */
type StoredDoc = Omit<RecallDoc, 'tokens'> & { tokens: Record<DocField, string> };

interface StoredIndex {
  format: number;
  documentVersion: number;
  /** relative path → [size, mtimeMs, ctimeMs, ino, document] */
  files: Record<string, [number, number, number, number, StoredDoc | null]>;
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
    if (!Array.isArray(value) || value.length !== 5 || !value.slice(0, 4).every((n) => typeof n === 'number')) continue;
    const [size, mtimeMs, ctimeMs, ino, stored] = value;
    if (stored !== null && !looksLikeDocument(stored, rel)) continue;
    entries.set(rel, { stamp: { size, mtimeMs, ctimeMs, ino }, doc: stored && { ...stored, tokens: mapFields(stored.tokens, (terms) => (terms === '' ? [] : terms.split(' '))) } });
  }
  return entries;
}

/** The checks that keep a damaged entry from reaching the ranker; the version covers the rest of the shape. */
function looksLikeDocument(doc: StoredDoc, rel: string): boolean {
  return typeof doc === 'object' && doc.path === rel && typeof doc.tokens === 'object' && doc.tokens !== null && DOC_FIELDS.every((field) => typeof doc.tokens[field] === 'string');
}

function mapFields<A, B>(fields: Record<DocField, A>, convert: (value: A) => B): Record<DocField, B> {
  return { name: convert(fields.name), description: convert(fields.description), body: convert(fields.body) };
}

/**
 * Store the entries; false when the directory cannot take it (read-only,
 * full): recall then works without an index, and `.memdir/` is only
 * created where writing is allowed.
 */
export function writeRecallIndex(dir: string, entries: Map<string, IndexEntry>): boolean {
  const files: StoredIndex['files'] = {};
  for (const [rel, { stamp, doc }] of entries) {
    files[rel] = [stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino, doc && { ...doc, tokens: mapFields(doc.tokens, (terms) => terms.join(' ')) }];
  }
  try {
    makeStateDir(dir);
    writeFileAtomic(recallIndexPath(dir), JSON.stringify({ format: INDEX_FORMAT, documentVersion: DOCUMENT_VERSION, files } satisfies StoredIndex));
    return true;
  } catch (error) {
    if (error instanceof IoError) return false;
    throw error;
  }
}
