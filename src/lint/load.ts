import path from 'node:path';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { messages } from '../core/messages.js';
import { INDEX_FILE, STATE_DIR } from '../core/taxonomy.js';
import { readMemoryFile } from '../store/files.js';
import { listFiles } from '../store/scan.js';
import { emptyRawDirectory, type RawDirectory } from './source.js';

/**
 * Read a memory directory for linting: every .md file's text and mtime,
 * every path present, symlinks that escape, files memdir leaves alone
 * (undecodable, too large) and files it reads but never writes (UTF-16).
 * Subfolders with their own MEMORY.md (team/) are separate directories and
 * are returned in `nested`.
 */
export function loadDirectory(root: string, options: { ignore?: string[] } = {}): { raw: RawDirectory; nested: string[] } {
  const { files, escaping } = listFiles(root, '**/*', [`${STATE_DIR}/**`, 'node_modules/**', ...(options.ignore ?? [])]);
  const nested = new Set(files.filter((f) => f !== INDEX_FILE && path.posix.basename(f) === INDEX_FILE).map((f) => path.posix.dirname(f)));
  const inNested = (rel: string) => [...nested].some((dir) => rel.startsWith(`${dir}/`));
  const raw = emptyRawDirectory(root);
  for (const rel of escaping) {
    if (inNested(rel)) continue;
    raw.present.add(rel);
    raw.escapingLinks.add(rel);
  }
  for (const rel of files) {
    if (inNested(rel)) continue;
    raw.present.add(rel);
    if (!rel.endsWith('.md')) continue;
    // The index has no size cap here: lint --fix is how a huge index of dead pointers gets small.
    const read = readMemoryFile(path.join(root, rel), rel === INDEX_FILE ? {} : { maxBytes: MAX_TOPIC_FILE_BYTES });
    if (!read) continue;
    if (!read.ok) {
      raw.unreadable.push({ path: rel, message: read.problem });
      continue;
    }
    raw.files.set(rel, { text: read.text, mtimeMs: read.mtimeMs });
    if (read.encoding !== 'UTF-8') raw.readOnly.set(rel, messages.readOnlyEncoding(read.encoding));
  }
  return { raw, nested: [...nested].map((dir) => path.join(root, dir)) };
}
