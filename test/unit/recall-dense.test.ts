import { describe, expect, test } from 'vitest';
import { denseScore, fuseRankings, isMostlyLatin, memoryLines } from '../../src/recall/dense.js';
import type { RecallDoc } from '../../src/recall/rank.js';

const doc = (path: string, mtimeMs = 0): RecallDoc => ({ path, type: 'project', mtimeMs, terms: { name: '', description: '', body: '' }, lengths: { name: 0, description: 0, body: 0 } });
const unit = (...xs: number[]) => {
  const length = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / length));
};

describe('semantic ranking, the pure half', () => {
  test('memoryLines: name, description, then each body line, trimmed; blank, rule and one-character lines left out', () => {
    expect(memoryLines({ name: 'Weekend routine', description: ' What the user does on weekends ', body: '\n# Skiing\n\n---\na\nSkis every winter weekend.\n' })).toEqual([
      'Weekend routine',
      'What the user does on weekends',
      '# Skiing',
      'Skis every winter weekend.',
    ]);
    const long = memoryLines({ name: 'n', description: '', body: Array.from({ length: 300 }, (_, i) => `line ${i} ${'x'.repeat(2000)}`).join('\n') });
    expect([long.length, Math.max(...long.map((l) => l.length))]).toEqual([200, 1000]);
  });

  test('isMostlyLatin: the English model is asked only about queries mostly in Latin letters', () => {
    expect(['what are the hobbies?', 'où est le café ?', 'can I merge 部署 now', 'Straße'].map(isMostlyLatin)).toEqual([true, true, true, true]);
    expect(['周二可以部署吗', '배포는 언제 하나요?', 'デプロイはいつ hook', '123 ?'].map(isMostlyLatin)).toEqual([false, false, false, false]);
  });

  test('denseScore: the mean cosine of the three best lines; no lines, no score', () => {
    const query = unit(1, 0);
    const lines = [unit(1, 0), unit(0, 1), unit(1, 1), unit(-1, 0), unit(3, 1)];
    expect(denseScore(lines, query)).toBeCloseTo((1 + Math.SQRT1_2 + 3 / Math.hypot(3, 1)) / 3, 6);
    expect(denseScore([], query)).toBe(0);
  });

  test('fuseRankings: the words choose the memories, meaning reorders them (both scaled to their best, added)', () => {
    const [a, b, c] = [doc('a.md'), doc('b.md'), doc('c.md')];
    const lexical = [
      { doc: a, score: 4 },
      { doc: b, score: 2 },
    ];
    const fused = fuseRankings(
      lexical,
      [a, b, c],
      new Map([
        ['a.md', 0.1],
        ['b.md', 0.4],
        ['c.md', 0.5],
      ]),
      1,
    );
    // Scaled to the best of the candidates (b, 0.4): c is not one of them.
    expect(fused.map((r) => [r.doc.path, r.score])).toEqual([
      ['b.md', 1.5],
      ['a.md', 1.25],
    ]);
    // No positive semantic score anywhere: the lexical ranking alone (a negative one lowers its memory).
    expect(
      fuseRankings(
        lexical,
        [a, b, c],
        new Map([
          ['a.md', -0.2],
          ['c.md', 0],
        ]),
      ).map((r) => [r.doc.path, r.score]),
    ).toEqual([
      ['a.md', 1],
      ['b.md', 0.5],
    ]);
  });

  test('fuseRankings: when no word matches, the memories at least half as close in meaning as the closest; ties newest first', () => {
    const docs = [doc('x.md', 1), doc('y.md', 2), doc('z.md', 3)];
    expect(
      fuseRankings(
        [],
        docs,
        new Map([
          ['x.md', 0.3],
          ['y.md', 0.3],
          ['z.md', 0.14],
        ]),
      ).map((r) => [r.doc.path, r.score]),
    ).toEqual([
      ['y.md', 1],
      ['x.md', 1],
    ]);
    expect(
      fuseRankings(
        [],
        docs,
        new Map([
          ['x.md', -0.1],
          ['y.md', 0],
        ]),
      ),
    ).toEqual([]);
  });
});
