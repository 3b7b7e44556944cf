import { related } from './synonyms.js';
import { dateTerms } from '../core/dates.js';
import { tokenize } from '../core/tokenize.js';
import { addPostings, DOC_FIELDS, type DocField, type PostingSource, type RecallDoc, searchTerms, termsOf } from './document.js';
import { escapeRegExp } from '../core/regexp.js';
import { isTaskTerm } from './task-words.js';
import { fieldDefault } from '../config/sections.js';

export type { RecallDoc } from './document.js';

export interface Ranked {
  doc: RecallDoc;
  score: number;
}

/**
 * The ranker's knobs. DEFAULT_TUNING holds what the dev split chose
 * (bench/recall/); the benchmark switches single ideas off and on to
 * report what each one does on the test split.
 */
export interface RankTuning {
  weights: Record<DocField, number>;
  k1: number;
  b: number;
  /** Expand query terms through the hand-written synonym table (src/recall/synonyms.ts). */
  synonyms: boolean;
  /** Pseudo-relevance feedback: add the best `terms` terms of the top `docs` results at `weight`. */
  feedback: { docs: number; terms: number; weight: number } | null;
  /** Co-occurrence: add the `terms` words that most often share memories with each query word, at up to `weight`. */
  cooccurrence: { terms: number; weight: number } | null;
  /** Bonus per pair of query terms found next to each other (within 3 words) in one field. */
  proximity: number;
  /** Match absolute dates whatever their format ("7 Jan 2024" = "2024-01-07"). */
  dateTerms: boolean;
  /**
   * A query naming a day favours memories dated (in name or description) that day or up to `days` after:
   * a memory reports what happened before it was written. Up to ×(1 + `weight`), less the later it is.
   */
  dateNear: { days: number; weight: number } | null;
  /** A memory scoring under this share of the best one is not worth the agent's context. */
  cutoff: number;
  /**
   * When asked to abstain (the prompt hook), stay silent unless the best memory holds at least `words`
   * of the query's words and `all` of its weight (idf), or `known` of the weight of the words the directory knows.
   * With `taskWords`, words that only instruct the agent (TASK_WORDS in task-words.ts) do not count as the query's words.
   * A word's weight counts in proportion to how strongly the memory holds it, its field-weighted BM25 term
   * score, in full from `heldAt` (2: a mention in the description): a word once in a long body covers little.
   * 0 counts any mention in full.
   */
  abstain: { known: number; all: number; words: number; taskWords: boolean; heldAt: number };
}

export const DEFAULT_TUNING: RankTuning = {
  weights: { name: 1, description: 2, body: 1 },
  k1: 1.2,
  b: 0.75,
  synonyms: false,
  feedback: null,
  cooccurrence: null,
  proximity: 0.2,
  dateTerms: false,
  dateNear: { days: 3, weight: 1 },
  cutoff: 0,
  abstain: { known: 0.4, all: 0.25, words: 2, taskWords: true, heldAt: 2 },
};

/** Measured over the query's topic words: without the task words when `abstain.taskWords` is on. */
export interface Coverage {
  /** The share of the query's weight (idf) that the best memory holds, 0–1. */
  all: number;
  /** The same among the query words that occur somewhere in the directory. */
  known: number;
  /** How many distinct query words the best memory holds. */
  words: number;
}

export interface Ranking {
  ranked: Ranked[];
  coverage: Coverage;
  /** False when even the best memory covers too little of the query; with `abstain`, `ranked` is then empty. */
  confident: boolean;
}

export interface RankOptions {
  limit?: number;
  /** Tools the agent is using now: how-to memories about them are noise, warnings about them are not. */
  recentTools?: string[];
  /**
   * A memory's name, description and body as text, asked for the best few candidates only when
   * `recentTools` is given: documents hold terms, and whether a memory is a how-to or a warning is
   * read from its words.
   */
  textOf?: (doc: RecallDoc) => string | undefined;
  nowMs?: number;
  /** Return nothing when even the best memory is a weak match (the prompt hook asks for this). */
  abstain?: boolean;
  tuning?: Partial<RankTuning>;
}

const EXPANSION_WEIGHT = 0.35;
const PROXIMITY_WINDOW = 3;
const SPACE = 0x20;
/** Only the best few candidates are re-scored for proximity and dates (cheap on 5,000 files). */
const RESCORE_TOP = 30;
const WARNING = /\b(?:gotcha|warning|careful|caution|never|don't|do not|avoid|bug|pitfall|caveat|breaks?|broken|fails?)\b|注意|不要|警告/i;

/**
 * One field of every document as a single string (documents separated by newlines), with the
 * offset where each document starts: a query's terms are found in one regular-expression pass
 * per field instead of one per document and field.
 */
interface FieldCorpus {
  text: string;
  starts: number[];
}

/**
 * A BM25F index over name, description and body. Pure; build once, query many times.
 * Term statistics are counted on demand, in one pass per query (the prompt hook ranks
 * a directory once per process, so counting every term of every memory would be waste),
 * or taken from a `PostingSource` that holds them already (the stored index).
 */
export class RecallIndex {
  private readonly docs: RecallDoc[];
  /**
   * For each counted term, the documents holding it and its counts there, flat:
   * [document, name count, description count, body count] per document, documents (indices into
   * `docs`) ascending. Its length / 4 is the term's df. Plain numbers rather than a Map per
   * document: the prompt hook's words often occur in most memories.
   */
  private readonly postings = new Map<string, readonly number[]>();
  private readonly avgLen: Record<DocField, number>;
  /** The terms whose postings are complete; `null` once every term is. */
  private counted: Set<string> | null = new Set();
  private corpus: Record<DocField, FieldCorpus> | undefined;
  /** The stored postings, with where each of their slots is among `docs` (-1: not ranked), when every document has a slot. */
  private readonly stored: StoredPostings | undefined;

  /** `postings`, when given, holds the counts of `docs` (or of more documents: the others are left out). */
  constructor(docs: RecallDoc[], postings?: PostingSource) {
    this.docs = docs;
    this.stored = postings && storedSlots(docs, postings);
    const n = Math.max(1, docs.length);
    const sums = { name: 0, description: 0, body: 0 };
    for (const { lengths } of docs) {
      sums.name += lengths.name;
      sums.description += lengths.description;
      sums.body += lengths.body;
    }
    this.avgLen = { name: sums.name / n || 1, description: sums.description / n || 1, body: sums.body / n || 1 };
  }

  /** Count `terms` (every term when omitted) in every document, unless already counted. */
  private count(terms?: Iterable<string>): void {
    const counted = this.counted;
    if (counted === null) return;
    if (terms === undefined) {
      const all = new Map<string, number[]>();
      this.docs.forEach((doc, i) => {
        addPostings(doc, i, all);
      });
      for (const [term, flat] of all) if (!counted.has(term)) this.postings.set(term, flat);
      this.counted = null;
      return;
    }
    const wanted = [...new Set(terms)].filter((t) => !counted.has(t));
    if (wanted.length === 0) return;
    if (this.stored) for (const term of wanted) this.setPostings(term, this.stored.postingsOf(term));
    else this.countInCorpus(wanted);
    for (const term of wanted) counted.add(term);
  }

  private setPostings(term: string, flat: readonly number[]): void {
    if (flat.length > 0) this.postings.set(term, flat);
  }

  /** Count `terms` in the documents' own terms: one regular-expression pass per field. */
  private countInCorpus(terms: string[]): void {
    // A whole term: preceded and followed by a separator (space between terms, newline between documents) or an end.
    const pattern = new RegExp(`(?<![^ \\n])(?:${terms.map(escapeRegExp).join('|')})(?![^ \\n])`, 'g');
    this.corpus ??= corpusOf(this.docs);
    // Per term and field, [document, count] runs: a field's documents come in order.
    const runs = new Map<string, [number[], number[], number[]]>();
    DOC_FIELDS.forEach((field, f) => {
      const { text, starts } = this.corpus![field];
      let i = 0;
      for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
        while (i + 1 < starts.length && starts[i + 1]! <= match.index) i++;
        let byField = runs.get(match[0]);
        if (!byField) runs.set(match[0], (byField = [[], [], []]));
        const run = byField[f]!;
        if (run[run.length - 2] === i) run[run.length - 1]!++;
        else run.push(i, 1);
      }
    });
    for (const [term, byField] of runs) this.setPostings(term, mergeRuns(byField));
  }

  /** How many documents hold `term` (counted terms only). */
  private df(term: string): number {
    return (this.postings.get(term)?.length ?? 0) / 4;
  }

  private idf(term: string): number {
    const df = this.df(term);
    return Math.log(1 + (this.docs.length - df + 0.5) / (df + 0.5));
  }

  /** Where document `i` is in the postings of `term` (a counted term); -1 when it does not hold it. */
  private find(term: string, i: number): number {
    const flat = this.postings.get(term);
    if (!flat) return -1;
    let low = 0;
    let high = flat.length / 4 - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const doc = flat[middle * 4]!;
      if (doc === i) return middle * 4;
      if (doc < i) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  private scoreAll(weights: Map<string, number>, scorer: FieldScorer): Ranked[] {
    this.count(weights.keys());
    // Term at a time over each term's postings: a memory without the term is never looked at for it.
    // Each memory's score still adds its terms up in the query's order (the same sums as memory at a time).
    const totals = new Float64Array(this.docs.length);
    for (const [term, weight] of weights) {
      const flat = this.postings.get(term);
      if (!flat) continue;
      const weightedIdf = weight * this.idf(term);
      for (let k = 0; k < flat.length; k += 4) {
        const termScore = scorer.score(flat, k);
        if (termScore) totals[flat[k]!]! += weightedIdf * termScore;
      }
    }
    const scored: Ranked[] = [];
    totals.forEach((score, i) => {
      if (score > 0) scored.push({ doc: this.docs[i]!, score });
    });
    return scored;
  }

  /**
   * Words that share memories with the query's words, by the cosine of their memory sets
   * (seen together in at least two memories, in at most half of them).
   */
  private cooccurring(terms: string[], cooccurrence: NonNullable<RankTuning['cooccurrence']>): Map<string, number> {
    const related = new Map<string, number>();
    this.count();
    for (const term of terms) {
      const df = this.df(term);
      if (df < 2) continue;
      const together = new Map<string, number>();
      const flat = this.postings.get(term)!;
      for (let k = 0; k < flat.length; k += 4) {
        const doc = this.docs[flat[k]!]!;
        const seen = new Set(DOC_FIELDS.flatMap((f) => termsOf(doc.terms[f])));
        for (const other of seen) if (other !== term) together.set(other, (together.get(other) ?? 0) + 1);
      }
      const best = [...together]
        .filter(([other, n]) => n >= 2 && this.df(other) <= this.docs.length / 2)
        .map(([other, n]) => [other, n / Math.sqrt(df * this.df(other))] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, cooccurrence.terms);
      for (const [other, cosine] of best) related.set(other, Math.max(related.get(other) ?? 0, cooccurrence.weight * cosine));
    }
    return related;
  }

  /** Terms of the top results that best describe them, weighted by tf·idf (pseudo-relevance feedback). */
  private feedbackTerms(top: Ranked[], query: Set<string>, feedback: NonNullable<RankTuning['feedback']>): Map<string, number> {
    const weight = new Map<string, number>();
    const docs = top.slice(0, feedback.docs).map((r) => r.doc);
    const termsOfDocs = docs.map((doc) => DOC_FIELDS.flatMap((field) => termsOf(doc.terms[field])));
    this.count(termsOfDocs.flat());
    for (const terms of termsOfDocs) {
      const counts = new Map<string, number>();
      for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [t, c] of counts) if (!query.has(t) && this.df(t) > 1) weight.set(t, (weight.get(t) ?? 0) + (c / terms.length) * this.idf(t));
    }
    const best = [...weight].sort((a, b) => b[1] - a[1]).slice(0, feedback.terms);
    const max = best[0]?.[1] ?? 1;
    return new Map(best.map(([t, w]) => [t, (feedback.weight * w) / max]));
  }

  /** Up to `limit` memories for `query`, best first; none when nothing really matches. */
  search(query: string, options: RankOptions = {}): Ranked[] {
    return this.rank(query, options).ranked;
  }

  /**
   * The ranking with the evidence for it: how much of the query the best memory
   * covers, and whether that is enough to answer (with `abstain`, nothing is returned when not).
   */
  rank(query: string, options: RankOptions = {}): Ranking {
    const tuning = { ...DEFAULT_TUNING, ...options.tuning };
    const limit = options.limit ?? fieldDefault('recall', 'limit');
    const queryTerms = tuning.dateTerms ? searchTerms(query) : tokenize(query);
    const base = [...new Set(queryTerms)];
    const weights = new Map<string, number>(base.map((t) => [t, 1]));
    if (tuning.synonyms) for (const term of base) for (const other of related(term)) if (!weights.has(other)) weights.set(other, EXPANSION_WEIGHT);
    if (tuning.cooccurrence) for (const [t, w] of this.cooccurring(base, tuning.cooccurrence)) if (!weights.has(t)) weights.set(t, w);

    const scorer = new FieldScorer(this.docs, this.avgLen, tuning);
    let scored = this.scoreAll(weights, scorer);
    if (scored.length === 0) return { ranked: [], coverage: { all: 0, known: 0, words: 0 }, confident: false };
    const days = tuning.dateNear ? dateTerms(query).flatMap(dayNumber) : [];
    // Feedback and dates move memories from beyond the best few into them: those rank every memory.
    scored = tuning.feedback || days.length ? scored.sort(byScore) : bestByScore(scored, RESCORE_TOP);
    const coverage = this.coverage(scored[0]!, tuning.abstain.taskWords ? base.filter((t) => !isTaskTerm(t)) : base, scorer, tuning.abstain.heldAt);
    const confident = answers(coverage, tuning.abstain);
    if (options.abstain && !confident) return { ranked: [], coverage, confident };
    if (tuning.feedback) {
      const extra = this.feedbackTerms(scored, new Set(weights.keys()), tuning.feedback);
      for (const [t, w] of extra) weights.set(t, w);
      scored = this.scoreAll(weights, scorer).sort(byScore);
    }
    if (tuning.dateNear && days.length) {
      for (const r of scored) r.score *= 1 + dateNearBonus(r.doc, days, tuning.dateNear);
      scored.sort(byScore);
    }
    const rescore = scored.slice(0, RESCORE_TOP);
    if (tuning.proximity > 0 && queryTerms.length > 1) for (const r of rescore) r.score *= 1 + tuning.proximity * this.proximityPairs(r.doc, queryTerms);

    const now = options.nowMs ?? Date.now();
    const tools = toolWords(options.recentTools ?? []);
    for (const r of rescore) {
      if (tools.length && isToolUsage(r.doc, options.textOf?.(r.doc) ?? '', tools)) r.score *= 0.3;
      // Recency breaks near-ties: at most +5% for a memory saved today.
      r.score *= 1 + 0.05 * Math.exp(-Math.max(0, now - r.doc.mtimeMs) / (90 * 86_400_000));
    }
    rescore.sort(byScore);
    const best = rescore[0]!.score;
    return { ranked: rescore.filter((r) => r.score >= best * tuning.cutoff).slice(0, limit), coverage, confident };
  }

  /** The share of the query's idf mass that `ranked` holds (see `abstain.heldAt`), overall and among known words. */
  private coverage(ranked: Ranked, terms: string[], scorer: FieldScorer, heldAt: number): Coverage {
    const i = this.docs.indexOf(ranked.doc);
    let total = 0;
    let known = 0;
    let found = 0;
    let words = 0;
    for (const term of terms) {
      const idf = this.idf(term);
      total += idf;
      if (this.df(term)) known += idf;
      const k = this.find(term, i);
      const held = k < 0 ? 0 : scorer.score(this.postings.get(term)!, k);
      if (held > 0) {
        found += heldAt > 0 ? idf * Math.min(1, held / heldAt) : idf;
        words++;
      }
    }
    return { all: total ? found / total : 0, known: known ? found / known : 0, words };
  }

  /**
   * How many consecutive query-term pairs occur within a few words of each other in one field of `doc`.
   * Only a field holding both terms of a pair (known from the counts) is looked at.
   */
  private proximityPairs(doc: RecallDoc, queryTerms: string[]): number {
    const i = this.docs.indexOf(doc);
    const held = new Map<string, number>();
    const holds = (term: string, f: number) => {
      let k = held.get(term);
      if (k === undefined) held.set(term, (k = this.find(term, i)));
      return k >= 0 && this.postings.get(term)![k + 1 + f]! > 0;
    };
    let pairs = 0;
    for (let j = 0; j + 1 < queryTerms.length; j++) {
      const [a, b] = [queryTerms[j]!, queryTerms[j + 1]!];
      if (a === b) continue;
      if (DOC_FIELDS.some((field, f) => holds(a, f) && holds(b, f) && near(doc.terms[field], a, b))) pairs++;
    }
    return pairs;
  }
}

/**
 * BM25F term scores under one tuning. Each field saturates on its own, then fields add up: a word in
 * a short name says more than deep in a long body. A field's length norm, and its score for a single
 * occurrence (most counts are 1), are worked out the first time the field is scored: the same
 * arithmetic, so the same scores, as per count, and far fewer intermediate numbers (each one a heap
 * allocation in the interpreter that runs a prompt hook: fewer means no second garbage collection).
 */
class FieldScorer {
  private readonly weights: number[];
  private readonly k1: number;
  private readonly k1Plus1: number;
  private readonly b: number;
  private readonly oneMinusB: number;
  /** k1 × length norm per document and field. */
  private readonly saturation: Float64Array;
  /** The score of a count of 1 per document and field. */
  private readonly single: Float64Array;
  /** Whether the two above hold a document's field yet. */
  private readonly measured: Uint8Array;

  constructor(
    private readonly docs: readonly RecallDoc[],
    private readonly avgLen: Record<DocField, number>,
    tuning: RankTuning,
  ) {
    this.weights = DOC_FIELDS.map((field) => tuning.weights[field]);
    this.k1 = tuning.k1;
    this.k1Plus1 = tuning.k1 + 1;
    this.b = tuning.b;
    this.oneMinusB = 1 - tuning.b;
    const cells = docs.length * DOC_FIELDS.length;
    this.saturation = new Float64Array(cells);
    this.single = new Float64Array(cells);
    this.measured = new Uint8Array(cells);
  }

  /** The score of the counts at `flat[k]`: a document and its name, description and body counts (see `RecallIndex.postings`). */
  score(flat: readonly number[], k: number): number {
    const at = flat[k]! * DOC_FIELDS.length;
    let score = 0;
    for (let f = 0; f < DOC_FIELDS.length; f++) {
      const tf = flat[k + 1 + f]!;
      if (!tf) continue;
      if (this.measured[at + f] === 0) this.measure(flat[k]!, f, at + f);
      score += tf === 1 ? this.single[at + f]! : this.fieldScore(f, tf, this.saturation[at + f]!);
    }
    return score;
  }

  private fieldScore(f: number, tf: number, saturation: number): number {
    return this.weights[f]! * ((tf * this.k1Plus1) / (tf + saturation));
  }

  private measure(doc: number, f: number, cell: number): void {
    const field = DOC_FIELDS[f]!;
    const saturation = this.k1 * (this.oneMinusB + (this.b * this.docs[doc]!.lengths[field]) / this.avgLen[field]);
    this.saturation[cell] = saturation;
    this.single[cell] = this.fieldScore(f, 1, saturation);
    this.measured[cell] = 1;
  }
}

/** Whether a best memory with this coverage is worth the agent's context. */
function answers(coverage: Coverage, abstain: RankTuning['abstain']): boolean {
  return coverage.words >= abstain.words && (coverage.all >= abstain.all || coverage.known >= abstain.known);
}

/** Best first; ties go to the newer memory, then by path (the one order every ranking uses). */
export const byScore = (a: Ranked, b: Ranked) => b.score - a.score || b.doc.mtimeMs - a.doc.mtimeMs || (a.doc.path < b.doc.path ? -1 : 1);

/**
 * The first `count` of `ranked` in `byScore` order, as sorting them all would give: the scores are
 * cut at the `count`-th best by a native numeric sort, so the comparator only orders the few above
 * it (a prompt's words often occur in most memories, and a comparator sort of them all would weigh on every prompt hook;
 * the `recall-index` bench measures the hook).
 */
function bestByScore(ranked: Ranked[], count: number): Ranked[] {
  if (ranked.length <= count) return ranked.sort(byScore);
  const scores = Float64Array.from(ranked, (r) => r.score).sort();
  const floor = scores[scores.length - count]!;
  return ranked
    .filter((r) => r.score >= floor)
    .sort(byScore)
    .slice(0, count);
}

/**
 * Whether terms `a` and `b` (distinct) occur within PROXIMITY_WINDOW terms of each other in `terms`
 * (a field's terms joined by spaces). Found by their offsets, not by splitting the field: the prompt
 * hook looks at the long bodies of its best 30 memories. The closest pair of an `a` and a `b` is
 * always next to each other among both terms' occurrences in order, so only those are measured.
 */
function near(terms: string, a: string, b: string): boolean {
  let atA = termAt(terms, a, 0);
  let atB = termAt(terms, b, 0);
  while (atA >= 0 && atB >= 0) {
    if (atA < atB) {
      const nextA = termAt(terms, a, atA + a.length);
      if ((nextA < 0 || nextA > atB) && withinWindow(terms, atA, atB)) return true;
      atA = nextA;
    } else {
      const nextB = termAt(terms, b, atB + b.length);
      if ((nextB < 0 || nextB > atA) && withinWindow(terms, atB, atA)) return true;
      atB = nextB;
    }
  }
  return false;
}

/** The offset of the next whole term `term` in `terms` from offset `from`; -1 when there is none. */
function termAt(terms: string, term: string, from: number): number {
  for (let at = terms.indexOf(term, from); at >= 0; at = terms.indexOf(term, at + 1)) {
    const end = at + term.length;
    if ((at === 0 || terms.charCodeAt(at - 1) === SPACE) && (end === terms.length || terms.charCodeAt(end) === SPACE)) return at;
  }
  return -1;
}

/** Whether the terms starting at offsets `from` < `to` are at most PROXIMITY_WINDOW terms apart (that many spaces between them). */
function withinWindow(terms: string, from: number, to: number): boolean {
  let space = from - 1;
  for (let spaces = 0; spaces <= PROXIMITY_WINDOW; spaces++) {
    space = terms.indexOf(' ', space + 1);
    if (space < 0 || space >= to) return true; // `spaces` spaces between them
  }
  return false;
}

const DAY_MS = 86_400_000;
/** The day number of a `YYYY-MM-DD` date term; none for a month alone. */
const dayNumber = (term: string): number[] => (/^\d{4}-\d\d-\d\d$/.test(term) ? [Date.parse(`${term}T00:00:00Z`) / DAY_MS] : []);

/** The bonus share for a memory dated on or shortly after one of the query's days (its name or description carries the date). */
function dateNearBonus(doc: RecallDoc, queryDays: number[], near: NonNullable<RankTuning['dateNear']>): number {
  let best = 0;
  for (const term of [...termsOf(doc.terms.name), ...termsOf(doc.terms.description)])
    for (const day of dayNumber(term))
      for (const queryDay of queryDays) {
        const after = day - queryDay;
        if (after >= 0 && after <= near.days) best = Math.max(best, near.weight * (1 - after / (near.days + 1)));
      }
  return best;
}

function toolWords(recentTools: string[]): string[][] {
  return recentTools
    .map((t) =>
      t
        .toLowerCase()
        .replace(/^mcp__/, '')
        .split(/__|[^a-z0-9]+/)
        .filter((p) => p.length > 2),
    )
    .filter((p) => p.length);
}

/** A how-to or reference memory about a tool already in use (and not a warning about it). */
function isToolUsage(doc: RecallDoc, fileText: string, tools: string[][]): boolean {
  const text = fileText.toLowerCase();
  if (WARNING.test(text)) return false;
  const mentions = tools.some((parts) => parts.every((p) => text.includes(p)));
  return mentions && (doc.type === 'reference' || /\b(?:usage|how to use|command|syntax|flags?|options?)\b/i.test(text));
}

interface StoredPostings {
  postingsOf(term: string): readonly number[];
}

/**
 * The postings of `source` in terms of `docs`: slots become document indices, documents left out
 * are dropped. Undefined when a document has no slot there (its counts are not stored).
 */
function storedSlots(docs: RecallDoc[], source: PostingSource): StoredPostings | undefined {
  // Every slot ranked, in order (the prompt hook's usual case): the stored postings are already in terms of `docs`.
  let inOrder = docs.length === source.slots;
  for (let i = 0; inOrder && i < docs.length; i++) inOrder = source.slotOf(docs[i]!) === i;
  if (inOrder) return { postingsOf: (term) => source.postings(term) };
  const indexOfSlot = new Int32Array(source.slots).fill(-1);
  for (let i = 0; i < docs.length; i++) {
    const slot = source.slotOf(docs[i]!);
    if (slot === undefined) return undefined;
    indexOfSlot[slot] = i;
  }
  return {
    postingsOf: (term) => {
      const flat = source.postings(term);
      const kept: number[] = [];
      for (let k = 0; k < flat.length; k += 4) {
        const i = indexOfSlot[flat[k]!]!;
        if (i >= 0) kept.push(i, flat[k + 1]!, flat[k + 2]!, flat[k + 3]!);
      }
      return kept;
    },
  };
}

/** One term's [document, count] runs per field (each ascending) as postings: [document, name, description, body counts] ascending. */
function mergeRuns(byField: [number[], number[], number[]]): number[] {
  const flat: number[] = [];
  const at = [0, 0, 0];
  for (;;) {
    let next = Infinity;
    for (let f = 0; f < 3; f++) if (at[f]! < byField[f]!.length) next = Math.min(next, byField[f]![at[f]!]!);
    if (next === Infinity) return flat;
    flat.push(next, 0, 0, 0);
    for (let f = 0; f < 3; f++) {
      const runs = byField[f]!;
      if (runs[at[f]!] !== next) continue;
      flat[flat.length - 3 + f] = runs[at[f]! + 1]!;
      at[f]! += 2;
    }
  }
}

function corpusOf(docs: RecallDoc[]): Record<DocField, FieldCorpus> {
  const build = (field: DocField): FieldCorpus => {
    const starts: number[] = [];
    let length = 0;
    const parts = docs.map((doc) => {
      starts.push(length);
      length += doc.terms[field].length + 1;
      return doc.terms[field];
    });
    return { text: parts.join('\n'), starts };
  };
  return { name: build('name'), description: build('description'), body: build('body') };
}
