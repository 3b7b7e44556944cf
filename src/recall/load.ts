import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { readMemoryFile } from '../store/files.js';
import { loadDirectories } from '../store/dir-reader.js';
import { documentFor, type RecallDoc } from './document.js';

/**
 * A topic file as recall reads it: the one reader, at most the first
 * MAX_TOPIC_FILE_BYTES of it. Undecodable or unreadable → undefined (skipped).
 */
export function readForRecall(file: string): { text: string; mtimeMs: number } | undefined {
  try {
    const read = readMemoryFile(file, { maxBytes: MAX_TOPIC_FILE_BYTES, prefix: true });
    return read?.ok ? { text: read.text, mtimeMs: read.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every topic file of the directory and of its nested memory directories
 * (team/), read through the one directory reader (the local engine ranks on
 * bodies too, so it indexes all files, not only the newest 200). Files the
 * reader leaves alone (undecodable, too large, symlinks out) are skipped.
 */
export function loadDocs(dir: string): RecallDoc[] {
  const docs: RecallDoc[] = [];
  for (const { prefix, raw } of loadDirectories(dir, { pattern: '**/*.md', prefixOfLarge: true })) {
    for (const [rel, { text, mtimeMs }] of raw.files) {
      if (rel === INDEX_FILE || rel.endsWith(`/${INDEX_FILE}`)) continue;
      docs.push(documentFor(prefix + rel, text, mtimeMs));
    }
  }
  return docs;
}
