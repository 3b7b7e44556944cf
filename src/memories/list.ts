import { buildModel } from '../core/dir-model.js';
import { ageInDays } from '../core/freshness.js';
import { pointerPath } from '../core/memory-index.js';
import { settleDirectory } from '../store/lock.js';
import { loadDirectories } from '../store/dir-reader.js';

export interface ListedMemory {
  /** Relative to the memory directory (team memories under team/). */
  path: string;
  type: string | undefined;
  name: string | undefined;
  description: string | undefined;
  mtimeMs: number;
  ageDays: number;
  /** Whether its directory's MEMORY.md points to it. */
  indexed: boolean;
}

/** Every memory of the directory and its nested ones, newest first (`type` keeps one type). */
export async function listMemories(dir: string, options: { type?: string | undefined; nowMs?: number } = {}): Promise<ListedMemory[]> {
  await settleDirectory(dir);
  const now = options.nowMs ?? Date.now();
  const memories: ListedMemory[] = [];
  for (const { prefix, raw } of loadDirectories(dir, { pattern: '**/*.md' })) {
    const model = buildModel(raw, { skipIndex: false });
    const pointed = new Set(model.index?.index.lines.flatMap((l) => (l.kind === 'pointer' ? [pointerPath(l.target)] : [])) ?? []);
    for (const topic of model.topics) {
      const { type, name, description } = topic.fields;
      if (options.type && type !== options.type) continue;
      memories.push({ path: prefix + topic.path, type, name, description, mtimeMs: topic.mtimeMs, ageDays: ageInDays(topic.mtimeMs, now), indexed: pointed.has(topic.path) });
    }
  }
  return memories.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}
