import fs from 'node:fs';
import path from 'node:path';
import { IoError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { STATE_DIR } from '../core/taxonomy.js';

/*
 * memdir's own state, `<dir>/.memdir/…`, is never reached through a symlink: a memory directory
 * committed in a repository could plant one there (`.memdir` itself, a subfolder, the file) to aim
 * memdir's writes at a file elsewhere. Every component from `.memdir` down is checked without
 * following it; a link is refused, naming it, and nothing is written.
 */

/** `<dir>/.memdir/<parts…>`, refused when any part of it that exists is a symlink. */
export function statePath(dir: string, ...parts: string[]): string {
  return checkStatePath(dir, path.join(dir, STATE_DIR, ...parts));
}

/** `file` (a path under `<dir>/.memdir/`), refused when any part of it below `dir` that exists is a symlink, or when it leads out of `.memdir/`. */
export function checkStatePath(dir: string, file: string): string {
  const parts = path.relative(dir, file).split(path.sep);
  if (parts[0] !== STATE_DIR || parts.includes('..')) throw new IoError(messages.outsideState(file));
  let current = dir;
  for (const part of parts) {
    current = path.join(current, part);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch {
      break; // absent from here down: memdir creates it
    }
    if (stat.isSymbolicLink()) throw new IoError(messages.stateLink(current));
  }
  return file;
}

const OPEN_FLAGS = {
  append: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND,
  replace: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC,
};

/** A state file opened to append to or to replace; a symlink in its place is refused (O_NOFOLLOW). */
export function openWithoutLinks(file: string, how: keyof typeof OPEN_FLAGS): number {
  try {
    return fs.openSync(file, OPEN_FLAGS[how] | fs.constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new IoError(messages.stateLink(file));
    throw error;
  }
}

/** `.memdir/<relative>` opened as openWithoutLinks does, every folder above it checked and made first. */
export function openStateFile(dir: string, relative: string, how: keyof typeof OPEN_FLAGS): number {
  const file = statePath(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return openWithoutLinks(file, how);
}
