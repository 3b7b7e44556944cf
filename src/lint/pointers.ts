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

type IndexPointer = { readonly line: PointerLine; readonly target: PointerTarget };
// Five rules walk the same index: its pointers are listed once per parsed index (like the targets above).
const pointersOfIndex = new WeakMap<readonly unknown[], readonly IndexPointer[]>();

/** Every pointer line of MEMORY.md, with where it leads. */
export function indexPointers(model: MemoryDirModel): readonly IndexPointer[] {
  const lines = model.index?.index.lines;
  if (!lines) return [];
  let pointers = pointersOfIndex.get(lines);
  if (!pointers) {
    const out: IndexPointer[] = [];
    for (const line of lines) if (line.kind === 'pointer') out.push({ line, target: pointerTarget(model, line) });
    pointers = out;
    pointersOfIndex.set(lines, pointers);
  }
  return pointers;
}
