import { describe, expect, test } from 'vitest';
import { parseMemoryIndex, pointerPath } from '../../src/core/memory-index.js';
import { planDreamKeepingWords } from '../../src/dream/plan.js';
import { planRefactorKeepingWords } from '../../src/refactor/plan.js';
import type { PlanInputFile } from '../../src/restructure/phases/state.js';
import { lostLines, lostWords } from '../../src/restructure/verify.js';

/**
 * Dream over generated indexes that mix what real ones hold: headings of every level (some the
 * type titles memdir writes), pointers to files that exist and to files that do not, second
 * pointers to one file, nested detail lines, inline facts and blank lines. Seeded, so a failure
 * reproduces; each case is planned as `memdir dream` and `memdir refactor` plan it.
 */
const CASES = 600;
const ANCHOR = new Date('2026-11-01T00:00:00Z');
const WORDS = ['deploy', 'freeze', 'staging', 'billing', 'Reference', 'Project', 'User', 'Feedback', 'Notes', 'People', '部署', 'Active'];

function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick };
}

function generatedDirectory(seed: number): Map<string, PlanInputFile> {
  const { next, pick } = generator(seed);
  const files = new Map<string, PlanInputFile>();
  const add = (file: string, text: string) => files.set(file, { text, anchor: ANCHOR, anchorSource: 'test' });
  const existing: string[] = [];
  for (let i = 0; i < 1 + Math.floor(next() * 4); i++) {
    const type = pick(['project', 'feedback', 'user', 'reference']);
    const file = `${type}_f${i}.md`;
    existing.push(file);
    add(file, `---\nname: f${i}\ndescription: about f${i} and ${pick(WORDS)} things\ntype: ${type}\n---\n\nBody of f${i}.\n`);
  }
  const lines: string[] = [];
  for (let i = 0; i < 3 + Math.floor(next() * 10); i++) {
    const r = next();
    if (r < 0.25) lines.push(`${'#'.repeat(1 + Math.floor(next() * 3))} ${pick(WORDS)}`);
    else if (r < 0.55) lines.push(`- [T${i}](${pick(existing)}) — hook ${pick(WORDS)} ${i}`);
    else if (r < 0.8) lines.push(`- [D${i}](missing_${Math.floor(next() * 3)}.md) — gone ${pick(WORDS)}`);
    else if (r < 0.88) lines.push(`  - detail ${pick(WORDS)} ${i}`);
    else if (r < 0.94) lines.push('');
    else lines.push(`- fact about ${pick(WORDS)} number ${i}`);
  }
  add('MEMORY.md', `${lines.join('\n')}\n`);
  return files;
}

describe('dream and refactor on generated indexes', () => {
  test(`${CASES} indexes: refactor plans each without losing a word (what it cannot move stays where it is)`, () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const input = generatedDirectory(seed);
      const { plan, lost } = planRefactorKeepingWords(input, { anchor: new Date('2026-11-30T00:00:00Z') });
      const texts = new Map([...input].map(([file, f]) => [file, f.text]));
      expect(lost, `seed ${seed}:\n${input.get('MEMORY.md')!.text}`).toEqual([]);
      expect(lostWords(texts, plan)).toEqual([]);
    }
  });

  test.each([
    ['in place', false],
    ['--restructure', true],
  ])(`${CASES} indexes, dream %s: planned without refusing, nothing lost, no bare pointer to a missing file left`, (_, restructure) => {
    for (let seed = 1; seed <= CASES; seed++) {
      const input = generatedDirectory(seed);
      const index = input.get('MEMORY.md')!.text;
      const { plan } = planDreamKeepingWords(input, { anchor: new Date('2026-11-30T00:00:00Z'), restructure });
      const texts = new Map([...input].map(([file, f]) => [file, f.text]));
      expect(lostLines(texts, plan), `seed ${seed}:\n${index}`).toEqual([]);
      const after = plan.changes.get('MEMORY.md') ?? index;
      const lines = parseMemoryIndex(after).lines;
      lines.forEach((line, i) => {
        const target = line.kind === 'pointer' ? pointerPath(line.target) : '';
        if (line.kind !== 'pointer' || (input.has(target) && plan.changes.get(target) !== null) || typeof plan.changes.get(target) === 'string') return;
        // Only a pointer with lines nested under it stays (they are the index's own text about it).
        expect(lines[i + 1]?.raw ?? '', `seed ${seed}: ${line.raw}\n${index}`).toMatch(/^\s+\S/);
      });
    }
  });
});
