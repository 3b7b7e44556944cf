import path from 'node:path';
import { InputError, RefusedError } from '../core/errors.js';
import { freshnessHeader } from '../core/freshness.js';
import { messages } from '../core/messages.js';
import { withoutBom } from '../core/topic-file.js';
import { isTeamPath } from '../core/taxonomy.js';
import { readMemoryFile } from '../store/files.js';
import { settleDirectory } from '../store/lock.js';
import { findMemoryFile, readLookupState } from '../store/memory-store.js';

export interface ShownMemory {
  path: string;
  /** Team memory (under team/, shared by sync) or private memory. */
  scope: 'private' | 'team';
  file: string;
  mtimeMs: number;
  /** The freshness header recall prints, then the whole file. */
  text: string;
}

/** One memory by file or name, with the freshness header recall uses. */
export async function showMemory(dir: string, what: string, options: { nowMs?: number } = {}): Promise<ShownMemory> {
  await settleDirectory(dir);
  const rel = findMemoryFile(readLookupState(dir, { withTeam: true }), what);
  const file = path.join(dir, rel);
  const read = readMemoryFile(file);
  if (!read) throw new RefusedError(messages.memoryNotFound(what, dir));
  if (!read.ok) throw new InputError(file, read.problem);
  return {
    path: rel,
    scope: isTeamPath(rel) ? 'team' : 'private',
    file,
    mtimeMs: read.mtimeMs,
    text: `${freshnessHeader(file, read.mtimeMs, options.nowMs ?? Date.now())}\n${withoutBom(read.text).trimEnd()}\n`,
  };
}
