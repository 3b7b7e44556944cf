import { position } from '../../core/dir-model.js';
import type { Report, Rule } from '../types.js';

const CODE_EXT = 'ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|sh|sql|vue|svelte|css|scss';
const FILE_LINE = new RegExp(String.raw`(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.(?:${CODE_EXT})):(\d+)(?::\d+)?\b`, 'g');
const COMMIT = /\b(?:commit|sha|hash|reverts?|reverted|cherry-picked|fixed in|landed in)\s+`?([0-9a-f]{7,40})\b|\b([0-9a-f]{40})\b/gi;
const KEYWORDS = ['commit', 'sha', 'hash', 'revert', 'cherry-picked', 'fixed in', 'landed in'];

/** Whether 40 hex digits in a row occur (a full commit hash); a character scan, as /[0-9a-f]{40}/i backtracks on every hex-looking word. */
function hasHex40(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 48 && code <= 57) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70)) {
      if (++run === 40) return true;
    } else run = 0;
  }
  return false;
}

/** Whether a body can hold anything this rule reports; plain substring checks are far cheaper than the patterns. */
function mayHoldDerivable(body: string): boolean {
  if (body.includes(':') || body.includes('/')) return true;
  const lower = body.toLowerCase();
  return KEYWORDS.some((k) => lower.includes(k)) || hasHex40(body);
}
/**
 * A hash that cites where a fact came from is provenance, not history retold: next to a
 * date ("2026-07-04, commit 84de970"), in parentheses ("(commit `5ce15d5`)") or in a
 * heading. A hash in running prose ("commit 3f9a2c1 fixed the retry") retells history.
 */
function isProvenance(body: string, index: number): boolean {
  const lineStart = body.lastIndexOf('\n', index) + 1;
  const lineEnd = body.indexOf('\n', index);
  const line = body.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  const at = index - lineStart;
  const opened = (open: string, close: string) => line.lastIndexOf(open, at) > line.lastIndexOf(close, at);
  return /(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)/.test(line) || /^\s*#/.test(line) || opened('(', ')') || opened('（', '）') || line.slice(0, at).split('`').length % 2 === 0;
}
/**
 * A 40-hex string that is not a commit: part of a URL, or a cell of a table column headed as a
 * checksum ("Client JAR SHA1", "sha256", "digest") — content hashes of artifacts, not git history.
 */
function isContentHash(body: string, index: number): boolean {
  const lineStart = body.lastIndexOf('\n', index) + 1;
  if (/\S*:\/\/\S*$/.test(body.slice(lineStart, index))) return true;
  const lines = body.slice(0, index).split('\n');
  const row = lines.pop()!;
  if (!row.trimStart().startsWith('|')) return false;
  let header = row;
  while (lines.length > 0 && lines.at(-1)!.trimStart().startsWith('|')) header = lines.pop()!;
  const column = row.split('|').length - 1;
  const title = header.split('|')[column] ?? '';
  return /sha-?(?:1|256|512)\b|checksum|digest|md5/i.test(title) && !/commit/i.test(title);
}
const PATH = /(?<![\w/.@:-])(\.?\/?(?:[\w.@-]+\/)+[\w.@-]+)(?![\w/])/g;

export const derivableContent: Rule = {
  id: 'MEM019',
  name: 'derivable-content',
  description:
    'Memory should hold what the code and git history cannot tell: file:line citations, commit hashes and repository paths go stale and are cheaper to look up. A commit hash in a line with a date (provenance: "2026-07-04, commit 84de970") is left alone, and so is a 40-hex content hash in a URL or in a checksum column ("SHA1", "sha256", "digest").',
  severity: 'warning',
  fixable: false,
  tags: ['content'],
  needs: ['repoFiles'],
  examples: {
    valid: [{ files: { 'feedback_tests.md': '---\nname: Tests\ndescription: Integration tests hit a real database, never mocks\ntype: feedback\n---\nNever mock the database.\n' } }],
    invalid: [{ files: { 'project_bug.md': '---\nname: Bug\ndescription: The retry bug in the queue worker\ntype: project\n---\nFixed in commit 3f9a2c1e; see src/queue/worker.ts:118.\n' } }],
  },
  check(model, report) {
    for (const topic of model.topics) {
      const bodyStart = topic.text.length - topic.topic.body.length;
      const body = topic.topic.body;
      const found: Report[] = [];
      const at = (index: number, message: string) => found.push({ file: topic.path, ...position(topic, bodyStart + index), message });
      // One cheap scan first: the full patterns are slow on long text, and most bodies have none.
      if (!mayHoldDerivable(body)) continue;
      if (/\.[a-z]{1,6}:\d/i.test(body)) for (const m of body.matchAll(FILE_LINE)) at(m.index, `file:line citation ${m[0]} goes stale as the code changes; describe the behaviour instead`);
      const mayCiteCommit = /commit|sha|hash|revert|cherry-picked|fixed in|landed in/i.test(body) || hasHex40(body);
      for (const m of mayCiteCommit ? body.matchAll(COMMIT) : []) {
        const hash = m[1] ?? m[2]!;
        const hashAt = m.index + m[0].indexOf(hash);
        if (!/\d/.test(hash) || !/[a-f]/i.test(hash) || isProvenance(body, hashAt) || (m[2] && isContentHash(body, hashAt))) continue;
        at(hashAt, `commit hash ${hash.slice(0, 12)} is git history; git log finds it`);
      }
      if (model.repoFiles.size > 0 && body.includes('/')) {
        for (const m of body.matchAll(PATH)) {
          const rel = m[1]!.replace(/^\.?\//, '');
          if (model.repoFiles.has(rel) && !FILE_LINE.test(m[0])) at(m.index, `${rel} is a path in the repository; the code already says what is there`);
          FILE_LINE.lastIndex = 0;
        }
      }
      for (const f of found.sort((a, b) => a.line - b.line || a.column - b.column)) report(f);
    }
  },
};
