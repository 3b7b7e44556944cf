import { describe, expect, test } from 'vitest';
import { jaccard, similarPairs, tokenSet } from '../../src/core/similarity.js';

describe('tokenSet', () => {
  test('the search terms recall ranks with: stemmed, lower-cased, without stop words, hyphenated words split', () => {
    expect([...tokenSet('The Merge-freeze on MAIN starts; it is for the mobile release.')]).toEqual(['merg', 'freez', 'main', 'start', 'mobil', 'releas']);
    expect(tokenSet('test organization')).toEqual(tokenSet('Tests organizations'));
  });
  test('CJK runs become words; accented words stay whole', () => {
    expect([...tokenSet('合并冻结 café')]).toEqual(['合并', '冻结', 'café']);
  });
});

describe('similarPairs', () => {
  test('finds near-duplicates, not mere topic overlap', () => {
    const texts = [
      'Do not summarize what was done at the end of a response; the user reads the diff.',
      'Do not summarize what was done at the end of each response; the user reads the diff themselves.',
      'Merge freeze on main while the mobile team cuts the release branch.',
    ];
    const pairs = similarPairs(texts, { minTokens: 3 });
    expect(pairs.map(({ a, b }) => [a, b])).toEqual([[0, 1]]);
    expect(jaccard(tokenSet(texts[0]!), tokenSet(texts[2]!))).toBeLessThan(0.2);
  });
});
