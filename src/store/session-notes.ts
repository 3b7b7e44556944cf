/**
 * Where a Claude Code session's notes live (`<memdir>/.memdir/sessions/<session-id>.md`, kept by
 * `memdir session`) and how the features that use them read them: the SessionStart hook brings
 * them back after a compaction, dream counts the sessions they were kept for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { statePath } from './state-path.js';

export const SESSIONS_DIR = 'sessions';

/** A session id as a file name: what is not a letter, digit, dot, dash or underscore becomes `_`, at most 100 characters. */
export const sessionFileName = (sessionId: string) => sessionId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);

export function sessionNotesFile(dir: string, sessionId: string): string {
  return statePath(dir, SESSIONS_DIR, `${sessionFileName(sessionId)}.md`);
}

/** Most bytes of notes read back: far above any budget the notes are kept to, so a planted file cannot flood a hook. */
const MAX_NOTES_BYTES = 256 * 1024;

/** The session's notes, at most `maxBytes` of them cut at a line's end; '' when there are none or they cannot be read. */
export function readSessionNotes(dir: string, sessionId: string, maxBytes = MAX_NOTES_BYTES): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(sessionNotesFile(dir, sessionId), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    if (!fs.fstatSync(fd).isFile()) return '';
    const buffer = Buffer.alloc(Math.min(maxBytes, MAX_NOTES_BYTES) + 1);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    let text = buffer.toString('utf8', 0, Math.min(read, maxBytes));
    if (read > maxBytes) text = text.slice(0, text.lastIndexOf('\n') + 1);
    return text.replace(/\uFFFD$/, '');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Ids (file names) of the sessions whose notes were written after `since` (ms). */
export function sessionsWithNotesSince(dir: string, since: number): string[] {
  let folder: string;
  let names: string[];
  try {
    folder = statePath(dir, SESSIONS_DIR);
    names = fs.readdirSync(folder);
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.md')) continue;
    try {
      if (fs.lstatSync(path.join(folder, name)).mtimeMs > since) found.push(name.slice(0, -3));
    } catch {
      // gone since the listing
    }
  }
  return found;
}
