import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { InputError } from '../core/errors.js';
import { INDEX_FILE, STATE_DIR } from '../core/taxonomy.js';
import { isConfined } from '../store/confine.js';
import { readMemoryText } from '../store/files.js';
import type { RawDirectory } from './source.js';

/**
 * Read a memory directory for linting: every .md file's text and mtime,
 * every path present, symlinks that escape, files that are not text.
 * Subfolders with their own MEMORY.md (team/) are separate directories and
 * are returned in `nested`.
 */
export function loadDirectory(root: string, options: { ignore?: string[] } = {}): { raw: RawDirectory; nested: string[] } {
  const entries = fg.sync('**/*', {
    cwd: root,
    dot: false,
    onlyFiles: true,
    followSymbolicLinks: false,
    objectMode: true,
    ignore: [`${STATE_DIR}/**`, 'node_modules/**', ...(options.ignore ?? [])],
    suppressErrors: true,
  });
  const nested = new Set(
    entries
      .filter((e) => e.path !== INDEX_FILE && path.posix.basename(e.path) === INDEX_FILE)
      .map((e) => path.posix.dirname(e.path)),
  );
  const inNested = (rel: string) => [...nested].some((dir) => rel.startsWith(`${dir}/`));
  const raw: RawDirectory = { root, files: new Map(), present: new Set(), escapingLinks: new Set(), unreadable: [], repoFiles: new Set(), commitTimes: new Map() };
  for (const entry of entries) {
    if (inNested(entry.path)) continue;
    raw.present.add(entry.path);
    const absolute = path.join(root, entry.path);
    if (entry.dirent.isSymbolicLink() && !isConfined(root, absolute)) {
      raw.escapingLinks.add(entry.path);
      continue;
    }
    if (!entry.path.endsWith('.md')) continue;
    try {
      const text = readMemoryText(absolute);
      if (text === undefined) continue;
      raw.files.set(entry.path, { text, mtimeMs: fs.statSync(absolute).mtimeMs });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      raw.unreadable.push({ path: entry.path, message: error.message.slice(error.file.length + 2) });
    }
  }
  return { raw, nested: [...nested].map((dir) => path.join(root, dir)) };
}
