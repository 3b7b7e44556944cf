import path from 'node:path';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { memoryFields, parseTopicFile } from '../core/topic-file.js';
import { readMemoryFile } from '../store/files.js';
import { listTopicFiles } from '../store/scan.js';
import type { RecallDoc } from './rank.js';

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
 * Every topic file of the directory (the local engine ranks on bodies too,
 * so it indexes all files, not only the newest 200). Symlinks out of the
 * directory, undecodable and unreadable files are skipped.
 */
export function loadDocs(dir: string): RecallDoc[] {
  const docs: RecallDoc[] = [];
  for (const rel of listTopicFiles(dir).files) {
    const read = readForRecall(path.join(dir, rel));
    if (!read) continue;
    const { file: topic } = parseTopicFile(read.text);
    const fields = memoryFields(topic.frontmatter?.data ?? {});
    docs.push({ path: rel, name: fields.name ?? rel.replace(/\.md$/, ''), description: fields.description ?? '', body: topic.body, type: fields.type ?? '', mtimeMs: read.mtimeMs });
  }
  return docs;
}
