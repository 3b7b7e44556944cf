/** The closed set of memory types (docs/architecture.md#memory-types). */
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export function isMemoryType(value: unknown): value is MemoryType {
  return typeof value === 'string' && (MEMORY_TYPES as readonly string[]).includes(value);
}

/** The index file every agent loads. */
export const INDEX_FILE = 'MEMORY.md';
/** memdir's own state folder inside a memory directory; never a memory. */
export const STATE_DIR = '.memdir';
/** Team memory: this folder of the memory directory, a scope of its own with its own MEMORY.md (shared by sync). */
export const TEAM_DIR = 'team';

/** Whether a path relative to the memory directory lies in team memory. */
export function isTeamPath(rel: string): boolean {
  return rel.split('/')[0] === TEAM_DIR;
}

/*
 * The labels, as people write them: "**Why:**", "**Why**:", "**Why** —", "**Why this matters:**",
 * "**How to apply (to reviews):**", "Why:" at the start of a line, and the same in Chinese,
 * Japanese and Korean, or as a heading of its own. A bare "why" inside a sentence does not count.
 */
const LABEL_END = String.raw`(?:\s*\([^)\n]{0,80}\))?\s*(?:\*\*|__)?\s*(?:[:：]|—|–|\s-\s|\*\*|__|[ \t]*(?:\r?\n|$))`;
const label = (words: string) => new RegExp(String.raw`(?:^|\n)[ \t>]*(?:[-*+][ \t]+)?(?:\*\*|__|#{1,6}[ \t]+)?[ \t]*(?:${words})${LABEL_END}|(?:\*\*|__)(?:${words})[^*_\n]{0,40}(?:\*\*|__)`, 'i');
/** Made on first use: every hook loads this module, and only lint and extract look for the labels. */
let labels: { why: RegExp; how: RegExp } | undefined;

/** The **Why:** / **How to apply:** labels a feedback or project memory lacks (none for other types). */
export function missingWhyHow(type: string | undefined, body: string): string[] {
  if (type !== 'feedback' && type !== 'project') return [];
  labels ??= {
    why: label(String.raw`why\b[^:：*_\n]{0,30}?|为什么|原因|理由|なぜ|이유|왜`),
    how: label('how to apply|how to use|how it applies|application|如何应用|怎么用|应用方式|适用|適用|使い方|적용'),
  };
  return [labels.why.test(body) ? '' : '**Why:**', labels.how.test(body) ? '' : '**How to apply:**'].filter(Boolean);
}
