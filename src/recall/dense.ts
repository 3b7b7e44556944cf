import { byScore, type Ranked, type RecallDoc } from './rank.js';

/**
 * Semantic ranking's pure half (the model is in semantic.ts): which lines of
 * a memory are embedded, a memory's score from its lines' vectors, and how
 * that score joins the lexical ranking. Each line is embedded on its own: a
 * session or a long memory holds many topics, and one vector for all of it
 * says little about any; the best few lines carry the match.
 * Chosen on the dev split of the frozen evaluation (bench/recall/README.md).
 */

/** How much the semantic score weighs against the lexical one, both scaled to their best memory (1). */
export const SEMANTIC_WEIGHT = 1;
/**
 * When no memory holds a word of the query, the closest in meaning are shown down to this share
 * of the best one's score: every memory is some distance from any query, and five slots filled
 * with the least far would be noise (in hand-made examples, short memories' cosines ran ~0.05–0.4 whatever the query).
 */
const MEANING_ALONE = 0.5;
/** A memory's semantic score: the mean cosine of its best lines. */
const BEST_LINES = 3;
/** Lines embedded per memory, and characters per line: a topic file splits at 200 lines, so this is all of a healthy one. */
const MAX_LINES = 200;
const MAX_LINE_CHARACTERS = 1000;

/** The lines of a memory that are embedded: its name, description and body lines, trimmed, without the empty and trivial ones. */
export function memoryLines(parts: { name: string; description: string; body: string }): string[] {
  const lines: string[] = [];
  for (const raw of [parts.name, parts.description, ...parts.body.split('\n')]) {
    const line = raw.trim().slice(0, MAX_LINE_CHARACTERS);
    if (line.length > 2 && /[\p{L}\p{N}]/u.test(line)) lines.push(line);
    if (lines.length === MAX_LINES) break;
  }
  return lines;
}

/** Whether most letters of `text` are Latin: the model was trained on English, and it reads other scripts as noise. */
export function isMostlyLatin(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  return letters.length > 0 && letters.filter((c) => /\p{Script=Latin}/u.test(c)).length * 2 >= letters.length;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** A memory's semantic score for a query: the mean cosine of its best lines (its vectors are unit length, as the model gives them). */
export function denseScore(lineVectors: Float32Array[], query: Float32Array): number {
  if (lineVectors.length === 0) return 0;
  const best = lineVectors
    .map((v) => dot(v, query))
    .sort((a, b) => b - a)
    .slice(0, BEST_LINES);
  return best.reduce((sum, s) => sum + s, 0) / best.length;
}

/**
 * The lexical ranking (its best memories, with scores) reordered by meaning: both scores scaled to
 * their best (1) and added with `weight`, so that of the memories the words found, the one about
 * the query's subject comes first. Words decide what is shown: a memory no query word matches
 * takes part only when the words found nothing at all ("hobbies" for a memory about skiing),
 * and then only if it is close to the closest (MEANING_ALONE). Best first.
 */
export function fuseRankings(lexical: Ranked[], docs: RecallDoc[], dense: ReadonlyMap<string, number>, weight = SEMANTIC_WEIGHT): Ranked[] {
  // Scaled to the best of the memories in the running: the words' candidates, else every memory.
  const running = lexical.length > 0 ? lexical.map((r) => r.doc) : docs;
  const bestDense = Math.max(0, ...running.map((doc) => dense.get(doc.path) ?? 0));
  const meaning = (doc: RecallDoc) => (bestDense > 0 ? (dense.get(doc.path) ?? 0) / bestDense : 0);
  if (lexical.length === 0) {
    const close = docs.filter((doc) => bestDense > 0 && meaning(doc) >= MEANING_ALONE);
    return close.map((doc) => ({ doc, score: weight * meaning(doc) })).sort(byScore);
  }
  const bestLexical = lexical[0]!.score || 1;
  return lexical.map((r) => ({ doc: r.doc, score: r.score / bestLexical + weight * meaning(r.doc) })).sort(byScore);
}
