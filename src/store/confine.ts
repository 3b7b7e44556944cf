import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../core/errors.js';
import { messages } from '../core/messages.js';

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** realpath of the deepest existing ancestor of `target`, plus the part that does not exist yet. */
function realpathOfNearest(target: string): string {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = path.dirname(current);
      if (parent === current) return target;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Absolute path of `relative` inside `dir`, refusing absolute paths, `..`
 * escapes and symlinks whose real target leaves the directory.
 */
export function confinedPath(dir: string, relative: string): string {
  const display = relative;
  if (path.isAbsolute(relative) || relative.includes('\0')) throw new InputError(display, 'must be a path relative to the memory directory');
  const target = path.resolve(dir, relative);
  if (!isInside(dir, target)) throw new InputError(display, messages.escapesDirectory(dir));
  const realDir = realpathOfNearest(dir);
  if (!isInside(realDir, realpathOfNearest(target))) {
    throw new InputError(target, messages.escapesDirectory(dir));
  }
  return target;
}

/** True when `file` (absolute) really lies inside `dir`, following symlinks. */
export function isConfined(dir: string, file: string): boolean {
  try {
    return isInside(realpathOfNearest(dir), realpathOfNearest(file));
  } catch {
    return false;
  }
}
