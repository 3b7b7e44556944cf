import { parseMemoryIndex, pointerPath, pointers, renderMemoryIndex, upsertPointer } from '../core/memory-index.js';

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
