import { classifyPointerTarget, parseMemoryIndex, pointerPath, pointers, renderMemoryIndex, upsertPointer } from '../core/memory-index.js';

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

/**
 * The local index as it may go up: its pointers to files that will not be on the remote after the
 * push (refused for a secret, too large, in conflict…) left out, so no teammate pulls a dead
 * pointer; the local index keeps them. Returns the text and the targets left out.
 */
export function keptLocalPointers(localText: string, onRemote: (key: string) => boolean): { text: string; kept: string[] } {
  const index = parseMemoryIndex(localText);
  const kept = new Set<string>();
  const lines = index.lines.filter((line) => {
    if (line.kind !== 'pointer') return true;
    const target = classifyPointerTarget(line.target);
    if (target.kind !== 'file' || onRemote(target.path)) return true;
    kept.add(target.path);
    return false;
  });
  if (kept.size === 0) return { text: localText, kept: [] };
  return { text: renderMemoryIndex({ ...index, lines }), kept: [...kept] };
}
