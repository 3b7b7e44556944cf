import { buildModel } from '../core/dir-model.js';
import { ageInDays } from '../core/freshness.js';
import { pointerPath } from '../core/memory-index.js';
import { INDEX_FILE, isTeamPath } from '../core/taxonomy.js';
import { settleDirectory } from '../store/lock.js';
import { loadDirectories } from '../store/dir-reader.js';

export interface ListedMemory {
  /** Relative to the memory directory (team memories under team/). */
  path: string;
  /** Team memory (under team/, shared by sync) or private memory. */
  scope: 'private' | 'team';
  type: string | undefined;
  name: string | undefined;
  description: string | undefined;
  mtimeMs: number;
  ageDays: number;
  /** Whether its directory's MEMORY.md points to it; null when that MEMORY.md cannot be read. */
  indexed: boolean | null;
}

export interface MemoryListing {
  memories: ListedMemory[];
  /** Files memdir cannot read (not UTF-8, too large), index or topic, with why: listed apart, never silently left out. */
  unreadable: Array<{ path: string; problem: string }>;
}

/** Every memory of the directory and its nested ones, newest first (`type` keeps one type). */
export async function listMemories(dir: string, options: { type?: string | undefined; nowMs?: number } = {}): Promise<MemoryListing> {
  await settleDirectory(dir);
  const now = options.nowMs ?? Date.now();
  const memories: ListedMemory[] = [];
  const unreadable: MemoryListing['unreadable'] = [];
  for (const { prefix, raw } of loadDirectories(dir, { pattern: '**/*.md' })) {
    for (const file of raw.unreadable) unreadable.push({ path: prefix + file.path, problem: file.message });
    const model = buildModel(raw, { skipIndex: false });
    const indexUnreadable = raw.unreadable.some((file) => file.path === INDEX_FILE);
    const pointed = new Set(model.index?.index.lines.flatMap((l) => (l.kind === 'pointer' ? [pointerPath(l.target)] : [])) ?? []);
    for (const topic of model.topics) {
      const { type, name, description } = topic.fields;
      if (options.type && type !== options.type) continue;
      const indexed = indexUnreadable ? null : pointed.has(topic.path);
      memories.push({
        path: prefix + topic.path,
        scope: isTeamPath(prefix + topic.path) ? 'team' : 'private',
        type,
        name,
        description,
        mtimeMs: topic.mtimeMs,
        ageDays: ageInDays(topic.mtimeMs, now),
        indexed,
      });
    }
  }
  return { memories: memories.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path)), unreadable };
}
