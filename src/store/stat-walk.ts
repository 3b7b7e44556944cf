import fs from 'node:fs';
import path from 'node:path';
import { STATE_DIR } from '../core/taxonomy.js';
import { isConfined } from './confine.js';

/** What identifies one version of a file for a cache: any write changes ctime, a replacement changes ino. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/**
 * Every `.md` file below `root` with its stamp, sorted by path: the files
 * `loadDirectories(root, { pattern: '**\/*.md' })` reads (no hidden files or
 * folders, no node_modules or .memdir/, symlinked folders not followed,
 * symlinked files only when they stay inside), nested memory directories
 * (team/) included. A plain readdir walk: hooks call it on every prompt, and
 * loading fast-glob alone costs more than the whole walk.
 */
export function statMarkdownFiles(root: string): Array<{ path: string; stamp: FileStamp }> {
  const candidates: string[] = [];
  // Joined by hand: path.join on every one of hundreds of files is a measurable share of a hook.
  const base = path.resolve(root);
  const walk = (rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(rel ? `${base}/${rel}` : base, { withFileTypes: true });
    } catch {
      return; // unreadable folder: skipped, as the directory reader does
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === STATE_DIR) continue;
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relPath);
      else if (!entry.name.endsWith('.md')) continue;
      else if (entry.isFile() || (entry.isSymbolicLink() && isConfined(root, path.join(root, relPath)))) candidates.push(relPath);
    }
  };
  walk('');
  // The default sort compares UTF-16 code units as `<` does, natively (a comparator costs a call per comparison).
  const found: Array<{ path: string; stamp: FileStamp }> = [];
  for (const rel of candidates.sort()) {
    const stamp = stampOf(`${base}/${rel}`);
    if (stamp) found.push({ path: rel, stamp });
  }
  return found;
}

function stampOf(file: string): FileStamp | undefined {
  try {
    const stat = fs.statSync(file, { throwIfNoEntry: false }); // undefined: gone since the listing, or a dangling link
    return stat?.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino } : undefined;
  } catch {
    return undefined; // unreadable
  }
}
