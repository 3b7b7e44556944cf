/**
 * Path keys of team memory: the relative paths files travel under, to and
 * from a remote. A key is checked both ways, so neither a hostile remote nor a
 * hostile local file name can make sync read or write outside `team/`.
 */

const MAX_KEY_LENGTH = 255;
/** Characters that look like a slash or a dot to a reader (or to some file system) but are not. */
const LOOKALIKES = /[\u2215\u2044\u29f8\uff0f\uff3c\u2024\uff0e\u2025\u2026\ufe52\u3002]/u;
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Why `key` is not a safe team path key, or undefined when it is. */
export function keyProblem(key: string): string | undefined {
  if (key.length === 0) return 'empty key';
  if (key.length > MAX_KEY_LENGTH) return `longer than ${MAX_KEY_LENGTH} characters`;
  if (key.includes('\0')) return 'contains a NUL byte';
  if (CONTROL_OR_FORMAT.test(key)) return 'contains a control or invisible formatting character';
  if (key.includes('\\')) return 'contains a backslash';
  if (key.startsWith('/') || /^[A-Za-z]:/.test(key)) return 'is an absolute path';
  if (/%[0-9A-Fa-f]{2}/.test(key)) return 'contains URL-encoded characters';
  if (key !== key.normalize('NFC') || key.normalize('NFKC') !== key.normalize('NFC')) return 'is not in Unicode normal form (NFC, no compatibility characters)';
  if (LOOKALIKES.test(key)) return 'contains a character that looks like a slash or a dot';
  const segments = key.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return 'has an empty, "." or ".." segment';
  if (segments.some((s) => s.startsWith('.'))) return 'has a hidden (dot) segment';
  if (segments.some((s) => s.endsWith(' ') || s.endsWith('.'))) return 'has a segment ending in a space or dot';
  if (!key.endsWith('.md')) return 'is not a Markdown file (.md)';
  return undefined;
}

/** Keys that differ only in case from another key of the list (all of them: which one is meant cannot be told). On a case-insensitive file system they are one file. */
export function caseCollisions(keys: Iterable<string>): Set<string> {
  const byFolded = new Map<string, string[]>();
  for (const key of keys) byFolded.set(key.toLowerCase(), [...(byFolded.get(key.toLowerCase()) ?? []), key]);
  return new Set([...byFolded.values()].filter((group) => group.length > 1).flat());
}
