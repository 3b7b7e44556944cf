import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { headFields } from '../core/topic-file.js';
import { INDEX_FILE, STATE_DIR } from '../core/taxonomy.js';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { isConfined } from './confine.js';
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
}

const CHUNK = 4096;

/**
 * Files below `dir` matching `pattern`: no hidden folders, symlinked folders
 * not followed, symlinked files only when they stay inside the directory (the
 * others are reported in `escaping`, never read).
 */
export function listFiles(dir: string, pattern: string, ignore: string[]): { files: string[]; escaping: string[] } {
  // Not fast-glob's onlyFiles: with symlinks not followed it drops every symlinked file unseen.
  const entries = fg.sync(pattern, { cwd: dir, dot: false, onlyFiles: false, followSymbolicLinks: false, objectMode: true, ignore, suppressErrors: true });
  const files: string[] = [];
  const escaping: string[] = [];
  for (const entry of entries) {
    if (entry.dirent.isFile()) files.push(entry.path);
    if (!entry.dirent.isSymbolicLink()) continue;
    const absolute = path.join(dir, entry.path);
    if (!isConfined(dir, absolute)) escaping.push(entry.path);
    else if (isFile(absolute)) files.push(entry.path);
  }
  return { files, escaping };
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Every topic file below `dir` (see `listFiles`): not MEMORY.md, not `.memdir/`. */
export function listTopicFiles(dir: string): { files: string[]; escaping: string[] } {
  return listFiles(dir, '**/*.md', [`${STATE_DIR}/**`, `**/${INDEX_FILE}`]);
}

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
 * The manifest pass: frontmatter of every topic file from its first lines,
 * newest first, capped. Files that cannot be read or decoded are reported, not fatal.
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
    if (!head.head.ok) {
      problems.push({ path: rel, message: head.head.problem });
      continue;
    }
    memories.push({ path: rel, ...headFields(head.head.text), mtimeMs: head.mtimeMs });
  }
  memories.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return { memories: limit > 0 ? memories.slice(0, limit) : memories, problems };
}
