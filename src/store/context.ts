import path from 'node:path';
import { truncateIndex, type TruncatedIndex } from '../core/truncate.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { readMemoryText } from './files.js';
import { settleDirectory } from './lock.js';
import { renderTemplate } from './templates.js';

export interface SessionContext {
  text: string;
  index: TruncatedIndex;
  indexFile: string;
}

/** What an agent should load at session start: instructions, then the index as the agent would load it. */
export async function sessionContext(dir: string): Promise<SessionContext> {
  await settleDirectory(dir);
  const indexFile = path.join(dir, INDEX_FILE);
  // Not readIndexText: an oversized index is shown cut, exactly as the agent sees it.
  const raw = readMemoryText(indexFile) ?? '';
  const index = truncateIndex(raw);
  const shown = index.content || '(empty: no memories saved yet)';
  const text = renderTemplate('context.md', { dir, index: shown });
  return { text, index, indexFile };
}
