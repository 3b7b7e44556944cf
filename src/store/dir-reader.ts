import fs from 'node:fs';
import path from 'node:path';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { messages } from '../core/messages.js';
import { lazyRequire } from '../core/lazy.js';
import { INDEX_FILE, isTeamPath, STATE_DIR, TEAM_DIR } from '../core/taxonomy.js';
import { isConfined } from './confine.js';
import { readMemoryFile } from './files.js';
import { gitFacts } from './git-facts.js';
import { emptyRawDirectory, type RawDirectory } from '../core/dir-model.js';

/**
 * Files below `dir` matching `pattern`: no hidden folders, symlinked folders
 * not followed, symlinked files only when they stay inside the directory (the
 * others are reported in `escaping`, never read).
 */
function listFiles(dir: string, pattern: string, ignore: string[]): { files: string[]; escaping: string[] } {
  const entries = pattern === '**/*' && ignore.length === 0 ? walkAll(dir) : globEntries(dir, pattern, ignore);
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

type ListedEntry = { path: string; dirent: Pick<fs.Dirent, 'isFile' | 'isSymbolicLink'> };
const ALWAYS_IGNORED = [`${STATE_DIR}/**`, 'node_modules/**'];

function globEntries(dir: string, pattern: string, ignore: string[]): ListedEntry[] {
  const fg = lazyRequire<typeof import('fast-glob')>('fast-glob');
  // Not fast-glob's onlyFiles: with symlinks not followed it drops every symlinked file unseen.
  return fg.sync(pattern, { cwd: dir, dot: false, onlyFiles: false, followSymbolicLinks: false, objectMode: true, ignore: [...ALWAYS_IGNORED, ...ignore], suppressErrors: true });
}

/**
 * The entries `globEntries(dir, '**\/*', [])` gives, in its order (breadth first, each folder as
 * readdir lists it), without loading fast-glob, which costs more than walking thousands of files:
 * no hidden names, symlinked folders not entered, the top-level node_modules/ left out, unreadable folders skipped.
 */
function walkAll(dir: string): ListedEntry[] {
  const entries: ListedEntry[] = [];
  const folders = [''];
  for (let next = 0; next < folders.length; next++) {
    const folder = folders[next]!;
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(path.join(dir, folder), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const dirent of dirents) {
      if (dirent.name.startsWith('.') || (folder === '' && dirent.name === 'node_modules')) continue;
      const rel = folder === '' ? dirent.name : `${folder}/${dirent.name}`;
      entries.push({ path: rel, dirent });
      if (dirent.isDirectory()) folders.push(rel);
    }
  }
  return entries;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The files of a memory directory, by the one rule every command uses: no
 * hidden folders, no `.memdir/`, symlinks out reported (never read), and
 * subfolders with their own MEMORY.md, and team/ always, left to be read as
 * directories of their own (returned in `nested`, relative).
 */
export function listMemoryFiles(root: string, pattern: string, ignore: string[] = []): { files: string[]; escaping: string[]; nested: string[]; inNested: string[] } {
  const listed = listFiles(root, pattern, ignore);
  const nested = [...new Set(listed.files.filter((f) => f !== INDEX_FILE && path.posix.basename(f) === INDEX_FILE).map((f) => path.posix.dirname(f)))];
  // team/ is team memory, a scope of its own even before its MEMORY.md exists: its files never count in the private index.
  if (!nested.includes(TEAM_DIR) && [...listed.files, ...listed.escaping].some(isTeamPath)) nested.unshift(TEAM_DIR);
  const outside = (rel: string) => !nested.some((dir) => rel.startsWith(`${dir}/`));
  return { files: listed.files.filter(outside), escaping: listed.escaping.filter(outside), nested, inNested: listed.files.filter((rel) => !outside(rel)) };
}

/**
 * Read a memory directory: every .md file's text and mtime,
 * every path present, symlinks that escape, files memdir leaves alone
 * (undecodable, too large) and files it reads but never writes (UTF-16).
 * Subfolders with their own MEMORY.md (team/) are separate directories and
 * are returned in `nested`.
 */
export function loadDirectory(root: string, options: { ignore?: string[]; pattern?: string; prefixOfLarge?: boolean } = {}): { raw: RawDirectory; nested: string[] } {
  const { files, escaping, nested, inNested } = listMemoryFiles(root, options.pattern ?? '**/*', options.ignore);
  const raw = emptyRawDirectory(root);
  // Present, never read here: a pointer in the private index to a team memory (Claude Code's single-index
  // layout writes `team/file.md`) leads somewhere, and no fix of this directory writes into team/.
  for (const rel of inNested) if (isTeamPath(rel)) raw.present.add(rel);
  for (const rel of escaping) {
    raw.present.add(rel);
    raw.escapingLinks.add(rel);
  }
  for (const rel of files) {
    raw.present.add(rel);
    if (!rel.endsWith('.md')) continue;
    // The index has no size cap here: lint --fix is how a huge index of dead pointers gets small.
    const read = readMemoryFile(path.join(root, rel), rel === INDEX_FILE ? {} : { maxBytes: MAX_TOPIC_FILE_BYTES, prefix: options.prefixOfLarge });
    if (!read) continue;
    if (!read.ok) {
      raw.unreadable.push({ path: rel, message: read.problem });
      continue;
    }
    raw.files.set(rel, { text: read.text, mtimeMs: read.mtimeMs });
    if (read.encoding !== 'UTF-8') raw.readOnly.set(rel, messages.readOnlyEncoding(read.encoding));
  }
  return { raw, nested: nested.map((dir) => path.join(root, dir)) };
}

/**
 * The directory and every nested memory directory below it (team/), each
 * loaded as its own; `prefix` is its path relative to `root` ('' or 'team/').
 */
export function loadDirectories(root: string, options: Parameters<typeof loadDirectory>[1] = {}): Array<{ prefix: string; raw: RawDirectory }> {
  const out: Array<{ prefix: string; raw: RawDirectory }> = [];
  const load = (prefix: string) => {
    const { raw, nested } = loadDirectory(path.join(root, prefix), options);
    out.push({ prefix, raw });
    for (const sub of nested) load(`${path.relative(root, sub).split(path.sep).join('/')}/`);
  };
  load('');
  return out;
}

/** What git knows that rules may need; read only when asked (it costs a git process). */
export interface GitFactsWanted {
  repoFiles: boolean;
  commitTimes: boolean;
}

/** `loadDirectory` plus the git facts asked for, in one call. */
export async function readMemoryDir(root: string, options: { ignore?: string[]; git: GitFactsWanted }): Promise<{ raw: RawDirectory; nested: string[] }> {
  const read = loadDirectory(root, options);
  const facts = await gitFacts(root, options.git);
  read.raw.repoFiles = facts.repoFiles;
  read.raw.commitTimes = facts.commitTimes;
  if (facts.userEmail) read.raw.userEmail = facts.userEmail;
  return read;
}
