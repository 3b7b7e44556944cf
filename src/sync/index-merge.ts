import { parseMemoryIndex, pointerPath, pointers, removePointer, renderMemoryIndex, upsertPointer } from '../core/memory-index.js';

/**
 * The remote team index, plus the local pointers it lacks to files this side
 * has. Two people saving at once both rewrite MEMORY.md; remote-wins alone
 * would drop one new memory's pointer, so pointers are merged (the remote's
 * own lines win).
 */
export function mergeTeamIndex(remoteText: string, localText: string, hasFile: (key: string) => boolean): string {
  let merged = parseMemoryIndex(remoteText);
  const remoteTargets = new Set(pointers(merged).map((p) => pointerPath(p.target)));
  for (const pointer of pointers(parseMemoryIndex(localText))) {
    const target = pointerPath(pointer.target);
    if (!remoteTargets.has(target) && hasFile(target)) merged = upsertPointer(merged, pointer);
  }
  return renderMemoryIndex(merged);
}

/** A pulled team index without its pointers to `heldBack` files (not taken from the remote): no dead pointer comes in with it. */
export function withoutHeldBack(indexText: string, heldBack: ReadonlySet<string>): string {
  if (heldBack.size === 0) return indexText;
  let index = parseMemoryIndex(indexText);
  const dropped = pointers(index).filter((p) => heldBack.has(pointerPath(p.target)));
  if (dropped.length === 0) return indexText;
  for (const pointer of dropped) index = removePointer(index, pointer.target);
  return renderMemoryIndex(index);
}
