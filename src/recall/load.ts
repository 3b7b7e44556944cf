import path from 'node:path';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { readMemoryFile } from '../store/files.js';
import { sameStamp, statMarkdownFiles } from '../store/stat-walk.js';
import { documentFor, type PostingSource, type RecallDoc } from './document.js';
import { type IndexEntry, openRecallIndex, StaleIndexError, writeRecallIndex } from './index-file.js';

/** Why recall cannot read a topic file (`readForRecall` gave nothing), for a message. */
export function unreadableProblem(file: string): string {
  try {
    const read = readMemoryFile(file, { maxBytes: MAX_TOPIC_FILE_BYTES, prefix: true });
    return read && !read.ok ? read.problem : 'cannot read it';
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A topic file as recall reads it: the one reader, at most the first
 * MAX_TOPIC_FILE_BYTES of it. Undecodable or unreadable → undefined (skipped).
 */
export function readForRecall(file: string, stat?: { size: number; mtimeMs: number }): { text: string; mtimeMs: number } | undefined {
  try {
    const read = readMemoryFile(file, { maxBytes: MAX_TOPIC_FILE_BYTES, prefix: true, stat });
    return read?.ok ? { text: read.text, mtimeMs: read.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

export interface LoadOptions {
  /** Use and keep `.memdir/recall-index.jsonl`: only files whose stamp changed are read. */
  persist?: boolean;
  /** With `persist`: read every file again and rewrite the index (one found damaged while ranking). */
  rebuild?: boolean;
  /** Told each topic file recall cannot read (not UTF-8, binary): a command that reports them. */
  onUnreadable?: (rel: string) => void;
}

/** The documents to rank and, from an index that is up to date, their terms' counts. */
export interface Corpus {
  docs: RecallDoc[];
  postings?: PostingSource;
}

/**
 * Every topic file of the directory and of its nested memory directories
 * (team/) as a document (the local engine ranks on bodies too, so it takes
 * all files, not only the newest 200). Files recall cannot read are skipped.
 * With `persist`, a file whose stamp matches the index is not read at all; when
 * none changed, the documents come from the index unparsed with its postings
 * (the prompt hook parses only what it ranks with); the index is rewritten
 * only when a file was added, changed or removed.
 */
export function loadCorpus(dir: string, options: LoadOptions = {}): Corpus {
  const stored = options.persist && !options.rebuild ? openRecallIndex(dir) : undefined;
  const walked = statMarkdownFiles(dir).filter(({ path: rel }) => rel !== INDEX_FILE && !rel.endsWith(`/${INDEX_FILE}`));
  if (stored?.isCurrent(walked)) {
    const docs: RecallDoc[] = [];
    for (let slot = 0; slot < stored.slots; slot++) {
      const doc = stored.docs[slot];
      if (doc) docs.push(doc);
      else options.onUnreadable?.(stored.paths[slot]!);
    }
    return { docs, postings: stored };
  }
  const cached = stored?.entries() ?? new Map<string, IndexEntry>();
  const current = new Map<string, IndexEntry>();
  let reread = 0;
  for (const { path: rel, stamp } of walked) {
    const hit = cached.get(rel);
    if (hit && sameStamp(hit.stamp, stamp)) {
      current.set(rel, hit);
      continue;
    }
    // The stamp was taken before the read: a write in between leaves an older stamp, so the file is read again next time.
    const content = readForRecall(path.join(dir, rel), stamp);
    current.set(rel, { stamp, doc: content ? documentFor(rel, content.text, content.mtimeMs) : null });
    reread++;
  }
  if (options.persist && (options.rebuild || reread > 0 || current.size !== cached.size)) writeRecallIndex(dir, current);
  const docs: RecallDoc[] = [];
  for (const [rel, entry] of current) {
    if (entry.doc) docs.push(entry.doc);
    else options.onUnreadable?.(rel);
  }
  return { docs };
}

/** The documents of the directory as plain objects (see `loadCorpus`). */
export function loadDocs(dir: string, options: LoadOptions = {}): RecallDoc[] {
  const plain = (docs: RecallDoc[]) => docs.map(({ path, type, mtimeMs, terms, lengths }) => ({ path, type, mtimeMs, terms, lengths }));
  try {
    return plain(loadCorpus(dir, options).docs);
  } catch (error) {
    // An index whose terms turned out damaged: read the files, and store what they say.
    if (!(error instanceof StaleIndexError)) throw error;
    return plain(loadCorpus(dir, { ...options, rebuild: true }).docs);
  }
}
