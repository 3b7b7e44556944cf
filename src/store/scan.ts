import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { headFields } from '../core/topic-file.js';
import { INDEX_FILE, STATE_DIR } from '../core/taxonomy.js';
import { isConfined } from './confine.js';

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
}

const CHUNK = 4096;

/**
 * Every topic file below `dir`: not MEMORY.md, not `.memdir/`, no hidden
 * folders, symlinked folders not followed, symlinked files only when they stay
 * inside the directory (the others are reported in `escaping`).
 */
export function listTopicFiles(dir: string): { files: string[]; escaping: string[] } {
  const entries = fg.sync('**/*.md', {
    cwd: dir,
    dot: false,
    onlyFiles: true,
    followSymbolicLinks: false,
    objectMode: true,
    ignore: [`${STATE_DIR}/**`, `**/${INDEX_FILE}`],
    suppressErrors: true,
  });
  const files: string[] = [];
  const escaping: string[] = [];
  for (const entry of entries) {
    if (entry.dirent.isSymbolicLink() && !isConfined(dir, path.join(dir, entry.path))) escaping.push(entry.path);
    else files.push(entry.path);
  }
  return { files, escaping };
}

/** Read up to `maxLines` lines from the start of a file without reading the rest. */
function readHead(file: string, maxLines: number, buffer: Buffer): { head: string; mtimeMs: number; binary: boolean } {
  const fd = fs.openSync(file, 'r');
  try {
    const mtimeMs = fs.fstatSync(fd).mtimeMs;
    const chunks: Buffer[] = [];
    let newlines = 0;
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, CHUNK, null);
      if (read === 0) break;
      const chunk = Buffer.from(buffer.subarray(0, read));
      chunks.push(chunk);
      if (chunk.includes(0)) return { head: '', mtimeMs, binary: true };
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
      if (newlines >= maxLines || read < CHUNK) break;
    }
    const text = Buffer.concat(chunks).toString('utf8');
    let end = -1;
    for (let n = 0; n < maxLines; n++) {
      end = text.indexOf('\n', end + 1);
      if (end === -1) return { head: text, mtimeMs, binary: false };
    }
    return { head: text.slice(0, end + 1), mtimeMs, binary: false };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The manifest pass: frontmatter of every topic file from its first lines,
 * newest first, capped. Unreadable and binary files are reported, not fatal.
 */
export function scanMemories(dir: string, options: ScanOptions = {}): { memories: ScannedMemory[]; problems: ScanProblem[] } {
  const limit = options.limit ?? 200;
  const headLines = options.headLines ?? 30;
  const buffer = Buffer.allocUnsafe(CHUNK);
  const memories: ScannedMemory[] = [];
  const problems: ScanProblem[] = [];
  const { files, escaping } = listTopicFiles(dir);
  for (const rel of escaping) problems.push({ path: rel, message: 'symlink pointing outside the memory directory' });
  for (const rel of files) {
    let head: ReturnType<typeof readHead>;
    try {
      head = readHead(path.join(dir, rel), headLines, buffer);
    } catch (error) {
      problems.push({ path: rel, message: (error as NodeJS.ErrnoException).code ?? String(error) });
      continue;
    }
    if (head.binary) {
      problems.push({ path: rel, message: 'binary file' });
      continue;
    }
    memories.push({ path: rel, ...headFields(head.head), mtimeMs: head.mtimeMs });
  }
  memories.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return { memories: limit > 0 ? memories.slice(0, limit) : memories, problems };
}
