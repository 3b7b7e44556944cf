import { classifyPointerTarget, type PointerLine, type PointerTarget } from '../core/memory-index.js';
import type { MemoryDirModel } from '../core/dir-model.js';

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
  const target = classifyPointerTarget(pointer.target);
  if (target.kind === 'file' && model.escapingLinks.has(target.path)) return { kind: 'escapes', reason: 'a symlink whose target is outside the directory' };
  return target;
}

/** Every pointer line of MEMORY.md, with where it leads. */
export function indexPointers(model: MemoryDirModel): Array<{ line: PointerLine; target: PointerTarget }> {
  const out: Array<{ line: PointerLine; target: PointerTarget }> = [];
  for (const line of model.index?.index.lines ?? []) if (line.kind === 'pointer') out.push({ line, target: pointerTarget(model, line) });
  return out;
}
