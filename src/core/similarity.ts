/**
 * Near-duplicate detection over short texts: token sets (words, plus
 * character bigrams for CJK), candidate pairs from an inverted index of
 * reasonably rare tokens, then exact Jaccard similarity. Pure.
 */

const STOP = new Set('the a an and or of to in on for with at by from is are was were be been it this that as not no do does did but if then so we you they i he she our your their its into about over after before when what which who how why all any can will would should could may might must has have had'.split(' '));

const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;

function isCjk(code: number): boolean {
  return (code >= 0x3040 && code <= 0x30ff) || (code >= 0x3400 && code <= 0x9fff);
}

function isWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || code === 39 || code === 45 || (code > 127 && !isCjk(code) && /[\p{L}\p{N}]/u.test(String.fromCharCode(code)));
}

/**
 * Words of three letters or more (not stop words), and character bigrams of
 * CJK runs, lower-cased. A hand-rolled scanner: this runs over every file of
 * a directory for near-duplicate checks, and regex splitting dominated it.
 */
export function tokenSet(text: string): Set<string> {
  const tokens = new Set<string>();
  const lower = text.toLowerCase();
  const hasCjk = CJK.test(lower);
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    const code = i < lower.length ? lower.charCodeAt(i) : 32;
    if (hasCjk && isCjk(code)) {
      if (start !== -1) addWord(tokens, lower.slice(start, i));
      start = -1;
      const next = i + 1 < lower.length ? lower.charCodeAt(i + 1) : 0;
      if (isCjk(next)) tokens.add(lower.slice(i, i + 2));
      continue;
    }
    if (isWordChar(code)) {
      if (start === -1) start = i;
    } else if (start !== -1) {
      addWord(tokens, lower.slice(start, i));
      start = -1;
    }
  }
  return tokens;
}

function addWord(tokens: Set<string>, word: string): void {
  if (word.length >= 3 && !STOP.has(word)) tokens.add(word);
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
  const threshold = options.threshold ?? 0.6;
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
