import path from 'node:path';
import { pointerPath, type PointerLine } from '../core/memory-index.js';
import type { MemoryDirModel } from '../core/dir-model.js';

export type PointerTarget =
  | { kind: 'external' }
  | { kind: 'escapes'; reason: string }
  | { kind: 'file'; path: string };

// Several rules ask about the same pointer lines; each line object is asked once.
const cache = new WeakMap<PointerLine, PointerTarget>();

/** Where a pointer leads: a URL, out of the directory, or a path inside it. */
export function pointerTarget(model: MemoryDirModel, pointer: PointerLine): PointerTarget {
  let target = cache.get(pointer);
  if (!target) {
    target = classify(model, pointer);
    cache.set(pointer, target);
  }
  return target;
}

function classify(model: MemoryDirModel, pointer: PointerLine): PointerTarget {
  const target = pointer.target;
  // A file: URL is a path on this machine, never a page: it leaves the directory like an absolute path.
  if (/^file:/i.test(target)) return { kind: 'escapes', reason: 'a file: URL' };
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) && !/^[a-z]:[\\/]/i.test(target)) return { kind: 'external' };
  const rel = pointerPath(target);
  if (path.posix.isAbsolute(rel) || /^[a-z]:[\\/]/i.test(rel)) return { kind: 'escapes', reason: 'an absolute path' };
  const normalized = path.posix.normalize(rel);
  if (normalized === '..' || normalized.startsWith('../')) return { kind: 'escapes', reason: 'a path leaving the directory (..)' };
  if (model.escapingLinks.has(normalized)) return { kind: 'escapes', reason: 'a symlink whose target is outside the directory' };
  return { kind: 'file', path: normalized };
}

/** Every pointer line of MEMORY.md, with where it leads. */
export function indexPointers(model: MemoryDirModel): Array<{ line: PointerLine; target: PointerTarget }> {
  const out: Array<{ line: PointerLine; target: PointerTarget }> = [];
  for (const line of model.index?.index.lines ?? []) if (line.kind === 'pointer') out.push({ line, target: pointerTarget(model, line) });
  return out;
}
