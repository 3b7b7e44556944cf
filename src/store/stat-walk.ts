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
 * loading fast-glob alone costs more than the whole walk. Names and one lstat
 * per entry rather than typed entries: a memory's lstat is its stamp, so it
 * costs one call either way, and Node's typed listing costs a hook more to set
 * up on its first use than it saves on the few entries that are not memories.
 */
export function statMarkdownFiles(root: string): Array<{ path: string; stamp: FileStamp }> {
  const stamps = new Map<string, FileStamp>();
  // Joined by hand: path.join on every one of hundreds of files is a measurable share of a hook.
  const base = path.resolve(root);
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = fs.readdirSync(rel ? `${base}/${rel}` : base);
    } catch {
      return; // unreadable folder: skipped, as the directory reader does
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules' || name === STATE_DIR) continue;
      const relPath = rel ? `${rel}/${name}` : name;
      const entry = statQuietly(`${base}/${relPath}`, fs.lstatSync);
      if (entry === undefined) continue;
      if (entry.isDirectory()) walk(relPath);
      else if (!name.endsWith('.md')) continue;
      else if (entry.isFile()) stamps.set(relPath, stampOf(entry));
      else if (entry.isSymbolicLink() && isConfined(root, path.join(root, relPath))) {
        const target = statQuietly(`${base}/${relPath}`, fs.statSync); // undefined: a dangling link
        if (target?.isFile()) stamps.set(relPath, stampOf(target));
      }
    }
  };
  walk('');
  // The default sort compares UTF-16 code units as `<` does, natively (a comparator costs a call per comparison).
  return [...stamps.keys()].sort().map((rel) => ({ path: rel, stamp: stamps.get(rel)! }));
}

/** The stat of `file` by `stat` (fs.statSync or fs.lstatSync); undefined when it is gone since the listing or unreadable. */
function statQuietly(file: string, stat: typeof fs.statSync): fs.Stats | undefined {
  try {
    return stat(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const stampOf = (stat: fs.Stats): FileStamp => ({ size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino });
