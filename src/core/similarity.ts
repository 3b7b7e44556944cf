import { isGeneratedLine } from './generated-text.js';
import { tokenize } from './tokenize.js';

/**
 * Near-duplicate detection over short texts: sets of search terms (stemmed
 * words, CJK words), candidate pairs from an inverted index of reasonably
 * rare terms, then exact Jaccard similarity. Pure.
 */

/** The distinct search terms of a text (the tokenizer recall ranks with), for set similarity. */
export function tokenSet(text: string): Set<string> {
  return new Set(tokenize(text));
}

/** Share of terms two memories must have in common to be near-duplicates (lint reports them, refactor and dream merge them). */
export const NEAR_DUPLICATE_THRESHOLD = 0.6;

/** The text two memories are compared on: name, description and body, without memdir's own default sentences. */
export function comparableText(fields: { name?: string | undefined; description?: string | undefined }, body: string): string {
  const own = body
    .split('\n')
    .filter((line) => !isGeneratedLine(line))
    .join('\n');
  return `${fields.name ?? ''}\n${fields.description ?? ''}\n${own}`;
}

/** Share of `part`'s terms that `whole` holds too (1 when all of them, 0 when `part` has none). */
export function containment(part: ReadonlySet<string>, whole: ReadonlySet<string>): number {
  if (part.size === 0) return 0;
  let shared = 0;
  for (const token of part) if (whole.has(token)) shared++;
  return shared / part.size;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const token of small) if (large.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}

export interface SimilarPair {
  a: number;
  b: number;
  score: number;
}

/**
 * Pairs of texts whose token sets have Jaccard similarity ≥ threshold.
 * Tokens shared by more than `maxDocFrequency` texts are too common to
 * propose candidates (they still count in the score).
 */
export function similarPairs(texts: string[], options: { threshold?: number; minTokens?: number; maxDocFrequency?: number } = {}): SimilarPair[] {
  const threshold = options.threshold ?? NEAR_DUPLICATE_THRESHOLD;
  const minTokens = options.minTokens ?? 5;
  const maxDf = options.maxDocFrequency ?? 50;
  const sets = texts.map(tokenSet);
  const postings = new Map<string, number[]>();
  sets.forEach((set, doc) => {
    if (set.size < minTokens) return;
    for (const token of set) {
      const list = postings.get(token);
      if (list) list.push(doc);
      else postings.set(token, [doc]);
    }
  });
  const shared = new Map<number, number>();
  for (const docs of postings.values()) {
    if (docs.length < 2 || docs.length > maxDf) continue;
    for (let i = 0; i < docs.length; i++) {
      for (let j = i + 1; j < docs.length; j++) {
        const key = docs[i]! * texts.length + docs[j]!;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
    }
  }
  const pairs: SimilarPair[] = [];
  for (const [key, count] of shared) {
    const a = Math.floor(key / texts.length);
    const b = key % texts.length;
    // Jaccard ≥ t needs at least t·max(|A|,|B|) shared tokens; rare tokens alone are a lower bound, so check exactly.
    if (count < 2) continue;
    const score = jaccard(sets[a]!, sets[b]!);
    if (score >= threshold) pairs.push({ a, b, score });
  }
  return pairs.sort((x, y) => y.score - x.score || x.a - y.a || x.b - y.b);
}
