import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../core/errors.js';
import { indexTextAsLoaded, type LoadedIndex, loadIndex, utf16IndexEncoding } from '../core/load-model.js';
import { INDEX_FILE, TEAM_DIR } from '../core/taxonomy.js';
import { confinedPath } from './confine.js';
import { readMemoryFile } from './files.js';
import { settleDirectory } from './lock.js';
import { renderTemplate } from './templates.js';

export interface SessionContext {
  text: string;
  index: LoadedIndex;
  indexFile: string;
  /** Team memory's index (`team/MEMORY.md`), loaded after the private one with limits of its own; absent without a team/ folder. */
  team?: { index: LoadedIndex; indexFile: string } | undefined;
}

/**
 * What an agent should load at session start: instructions, then the index as the agent would load
 * it, then, when there is team memory, the team index likewise (as Claude Code loads a team
 * directory when its team memory is on: after the private index, each with its own limits).
 */
export async function sessionContext(dir: string, options: { teamOnly?: boolean; settle?: boolean } = {}): Promise<SessionContext> {
  // Settling may write (an interrupted transaction rolled forward, a dead lock cleared); `settle: false` reads the directory as it is.
  if (options.settle !== false) await settleDirectory(dir);
  const { index, indexFile } = loadedIndex(dir, INDEX_FILE);
  const teamDir = path.join(dir, TEAM_DIR);
  const team = isDirectory(teamDir) ? loadedIndex(dir, `${TEAM_DIR}/${INDEX_FILE}`) : undefined;
  const teamText = team ? renderTemplate('context-team.md', { dir, teamDir: `${teamDir}${path.sep}`, index: team.index.content || '(empty: no team memories saved yet)' }) : '';
  // Where Claude Code loads the private index itself, the session needs only what it does not load: team memory.
  if (options.teamOnly) return { text: teamText.trim() ? `${teamText.trim()}\n` : '', index, indexFile, team };
  const shown = index.content || (team ? '(empty: no private memories saved yet)' : '(empty: no memories saved yet)');
  let text = renderTemplate('context.md', { dir, index: shown });
  if (team) text = `${text.trimEnd()}\n${teamText}`;
  return { text, index, indexFile, team };
}

/** One MEMORY.md (`rel` in `dir`) as the agent loads it. */
function loadedIndex(dir: string, rel: string): { index: LoadedIndex; indexFile: string } {
  // Confined like a write: a MEMORY.md that is a symlink out of the directory is refused, never shown.
  const indexFile = confinedPath(dir, rel);
  // Not readIndexText: an oversized index is shown cut, exactly as the agent sees it.
  const read = readMemoryFile(indexFile);
  if (read?.ok && read.encoding === 'UTF-8') return { index: loadIndex(read.text), indexFile };
  if (!read) return { index: loadIndex(''), indexFile };
  // A UTF-16 index as Claude Code loads it: its bytes read as UTF-8 (the shared load model), not as memdir decodes it.
  const bytes = fs.readFileSync(indexFile);
  if (utf16IndexEncoding(bytes)) return { index: loadIndex(indexTextAsLoaded(bytes)), indexFile };
  throw new InputError(indexFile, read.ok ? read.encoding : read.problem);
}

/** A real folder: a team/ that is a symlink is not followed, as the directory reader does not follow it. */
function isDirectory(dir: string): boolean {
  try {
    return fs.lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}
