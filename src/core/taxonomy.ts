/** The closed set of memory types (DESIGN §1.1). */
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export function isMemoryType(value: unknown): value is MemoryType {
  return typeof value === 'string' && (MEMORY_TYPES as readonly string[]).includes(value);
}

/** The index file every agent loads. */
export const INDEX_FILE = 'MEMORY.md';
/** memdir's own state folder inside a memory directory; never a memory. */
export const STATE_DIR = '.memdir';
