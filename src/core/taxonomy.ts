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

// "**Why:**", "**Why**:", "Why:" (and the Chinese labels); a bare "why" in prose does not count.
const WHY = /\bwhy(?:\*\*|__)?\s*[:：]|为什么[:：]|原因[:：]/i;
const HOW = /\bhow to apply(?:\*\*|__)?\s*[:：]|如何应用[:：]|怎么用[:：]/i;

/** The **Why:** / **How to apply:** labels a feedback or project memory lacks (none for other types). */
export function missingWhyHow(type: string | undefined, body: string): string[] {
  if (type !== 'feedback' && type !== 'project') return [];
  return [WHY.test(body) ? '' : '**Why:**', HOW.test(body) ? '' : '**How to apply:**'].filter(Boolean);
}
