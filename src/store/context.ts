import { InputError } from '../core/errors.js';
import { type LoadedIndex, loadIndex } from '../core/load-model.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { confinedPath } from './confine.js';
import { readMemoryFile } from './files.js';
import { settleDirectory } from './lock.js';
import { renderTemplate } from './templates.js';

export interface SessionContext {
  text: string;
  index: LoadedIndex;
  indexFile: string;
}

/** What an agent should load at session start: instructions, then the index as the agent would load it. */
export async function sessionContext(dir: string): Promise<SessionContext> {
  await settleDirectory(dir);
  // Confined like a write: a MEMORY.md that is a symlink out of the directory is refused, never shown.
  const indexFile = confinedPath(dir, INDEX_FILE);
  // Not readIndexText: an oversized index is shown cut, exactly as the agent sees it; UTF-16 is shown too.
  const read = readMemoryFile(indexFile);
  if (read && !read.ok) throw new InputError(indexFile, read.problem);
  const raw = read?.text ?? '';
  const index = loadIndex(raw);
  const shown = index.content || '(empty: no memories saved yet)';
  const text = renderTemplate('context.md', { dir, index: shown });
  return { text, index, indexFile };
}
