import fs from 'node:fs';
import path from 'node:path';
import { headFields } from '../core/topic-file.js';
import { INDEX_FILE, isTeamPath } from '../core/taxonomy.js';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { listMemoryFiles } from './dir-reader.js';
import { decodeMemoryBytes, utf16Bom, type Decoding } from './files.js';

export interface ScannedMemory {
  /** Path relative to the memory directory, with `/` separators. */
  path: string;
  name?: string;
  description?: string;
  type?: string;
  mtimeMs: number;
}

export interface ScanProblem {
  path: string;
  message: string;
}

export interface ScanOptions {
  /** Keep the newest N files; 0 keeps all. Default 200. */
  limit?: number;
  /** Lines read from the top of each file. Default 30. */
  headLines?: number;
  /** Only the directory's own scope: `team/` (another scope, whether or not it has its MEMORY.md yet) left out. */
  withoutTeam?: boolean;
}

const CHUNK = 4096;

/**
 * Up to `maxLines` lines from the start of a file, decoded by the one rule
 * (`decodeMemoryBytes`), without reading the rest (nor more than the topic size cap).
 */
function readHead(file: string, maxLines: number, buffer: Buffer): { head: Decoding; mtimeMs: number } {
  const fd = fs.openSync(file, 'r');
  try {
    const mtimeMs = fs.fstatSync(fd).mtimeMs;
    const chunks: Buffer[] = [];
    let newlines = 0;
    let size = 0;
    let complete = false;
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, CHUNK, null);
      const chunk = Buffer.from(buffer.subarray(0, read));
      chunks.push(chunk);
      size += read;
      if (read < CHUNK) complete = true;
      // NUL bytes outside UTF-16 mean binary: no need to read further to know.
      const binary = chunk.includes(0) && !utf16Bom(chunks[0]!);
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
      if (complete || binary || newlines >= maxLines || size >= MAX_TOPIC_FILE_BYTES) break;
    }
    const head = decodeMemoryBytes(Buffer.concat(chunks), complete);
    if (!head.ok) return { head, mtimeMs };
    let end = -1;
    for (let n = 0; n < maxLines; n++) {
      end = head.text.indexOf('\n', end + 1);
      if (end === -1) return { head, mtimeMs };
    }
    return { head: { ...head, text: head.text.slice(0, end + 1) }, mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The manifest pass, over the directory and its nested memory directories
 * (team/, paths prefixed): frontmatter of every topic file from its first lines,
 * newest first, capped. Files that cannot be read or decoded are reported, not fatal.
 */
export function scanMemories(dir: string, options: ScanOptions = {}): { memories: ScannedMemory[]; problems: ScanProblem[] } {
  const limit = options.limit ?? 200;
  const headLines = options.headLines ?? 30;
  const buffer = Buffer.allocUnsafe(CHUNK);
  const memories: ScannedMemory[] = [];
  const problems: ScanProblem[] = [];
  const scan = (prefix: string) => {
    const { files, escaping, nested } = listMemoryFiles(path.join(dir, prefix), '**/*.md');
    for (const rel of escaping) problems.push({ path: prefix + rel, message: 'symlink pointing outside the memory directory' });
    for (const rel of files) {
      if (rel === INDEX_FILE) continue;
      if (options.withoutTeam && isTeamPath(prefix + rel)) continue;
      let head: ReturnType<typeof readHead>;
      try {
        head = readHead(path.join(dir, prefix, rel), headLines, buffer);
      } catch (error) {
        problems.push({ path: prefix + rel, message: (error as NodeJS.ErrnoException).code ?? String(error) });
        continue;
      }
      if (!head.head.ok) {
        problems.push({ path: prefix + rel, message: head.head.problem });
        continue;
      }
      memories.push({ path: prefix + rel, ...headFields(head.head.text), mtimeMs: head.mtimeMs });
    }
    for (const sub of nested) if (!(options.withoutTeam && isTeamPath(prefix + sub))) scan(`${prefix}${sub}/`);
  };
  scan('');
  memories.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return { memories: limit > 0 ? memories.slice(0, limit) : memories, problems };
}
