import { describe, expect, test } from 'vitest';
import { comparableText, jaccard, NEAR_DUPLICATE_THRESHOLD, similarPairs, tokenSet } from '../../src/core/similarity.js';
import { defaultWhy, HOW_TO_APPLY, isGeneratedLine } from '../../src/core/generated-text.js';
import { findDurableStatement, proposeMemory } from '../../src/extract/local.js';

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

describe("memdir's own default sentences", () => {
  const anchor = new Date('2026-03-02T10:00:00Z');
  const written = (text: string) => {
    const found = findDurableStatement(text)!;
    const memory = proposeMemory(found, anchor);
    return comparableText(memory, memory.body);
  };

  test('are recognised, and a sentence a person wrote with the same label is not', () => {
    for (const line of [`**How to apply:** ${HOW_TO_APPLY.project}`, `**Why:** ${defaultWhy('request', '2026-03-02')}.`, `**Why:** ${defaultWhy('inferred', '2026-03-02')}.`])
      expect(isGeneratedLine(line)).toBe(true);
    expect(isGeneratedLine('**Why:** the user asked for this after the March outage.')).toBe(false);
    expect(isGeneratedLine('**How to apply:** take this into account when planning the migration.')).toBe(false);
  });

  test('do not make two memories extract wrote about different things near-duplicates', () => {
    const texts = [
      'Remember: the staging DB is reset every Monday.',
      'Remember: run the e2e suite before pushing.',
      'Remember: the on-call rotation changes every Monday.',
      'From now on, write commit messages in the imperative mood.',
      'Please always respond in Thai.',
    ].map(written);
    expect(similarPairs(texts, { threshold: NEAR_DUPLICATE_THRESHOLD })).toEqual([]);
    // The same statement written twice still is one.
    expect(
      similarPairs([written('Remember: the staging DB is reset every Monday.'), written('Remember that the staging database is reset every Monday.')], { threshold: NEAR_DUPLICATE_THRESHOLD }),
    ).toHaveLength(1);
  });
});
