import { related } from './synonyms.js';
import { tokenize } from '../core/tokenize.js';
import { DOC_FIELDS, type DocField, type RecallDoc } from './document.js';

export type { RecallDoc } from './document.js';

export interface Ranked {
  doc: RecallDoc;
  score: number;
}

export interface RankOptions {
  limit?: number;
  /** Tools the agent is using now: how-to memories about them are noise, warnings about them are not. */
  recentTools?: string[];
  nowMs?: number;
}

const FIELDS = DOC_FIELDS;
type Field = DocField;
/** The description is written to be the retrieval signal (DESIGN §1.1), the name next. */
const WEIGHT: Record<Field, number> = { name: 2.5, description: 3, body: 1 };
const K1 = 1.2;
const B = 0.75;
const EXPANSION_WEIGHT = 0.35;
/** A memory scoring under this share of the best one is not worth the agent's context. */
const RELATIVE_CUTOFF = 0.3;
const WARNING = /\b(?:gotcha|warning|careful|caution|never|don't|do not|avoid|bug|pitfall|caveat|breaks?|broken|fails?)\b|注意|不要|警告/i;

interface Indexed {
  doc: RecallDoc;
  tf: Record<Field, Map<string, number>>;
  len: Record<Field, number>;
}

/** A BM25F index over name, description and body. Pure; build once, query many times. */
export class RecallIndex {
  private readonly docs: Indexed[];
  private readonly df = new Map<string, number>();
  private readonly avgLen: Record<Field, number>;

  constructor(docs: RecallDoc[]) {
    // Document frequency without a set per document: remember the last document that counted a term.
    const lastCounted = new Map<string, number>();
    this.docs = docs.map((doc, i) => {
      const tf = { name: new Map<string, number>(), description: new Map<string, number>(), body: new Map<string, number>() };
      const len = { name: 0, description: 0, body: 0 };
      for (const field of FIELDS) {
        const terms = doc.tokens[field];
        len[field] = terms.length;
        const counts = tf[field];
        for (const term of terms) {
          counts.set(term, (counts.get(term) ?? 0) + 1);
          if (lastCounted.get(term) !== i) {
            lastCounted.set(term, i);
            this.df.set(term, (this.df.get(term) ?? 0) + 1);
          }
        }
      }
      return { doc, tf, len };
    });
    const n = Math.max(1, this.docs.length);
    this.avgLen = {
      name: this.docs.reduce((s, d) => s + d.len.name, 0) / n || 1,
      description: this.docs.reduce((s, d) => s + d.len.description, 0) / n || 1,
      body: this.docs.reduce((s, d) => s + d.len.body, 0) / n || 1,
    };
  }

  private idf(term: string): number {
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (this.docs.length - df + 0.5) / (df + 0.5));
  }

  /** Up to `limit` memories for `query`, best first; none when nothing really matches. */
  search(query: string, options: RankOptions = {}): Ranked[] {
    const limit = options.limit ?? 5;
    const base = [...new Set(tokenize(query))];
    const weights = new Map<string, number>(base.map((t) => [t, 1]));
    for (const term of base) for (const other of related(term)) if (!weights.has(other)) weights.set(other, EXPANSION_WEIGHT);
    const now = options.nowMs ?? Date.now();
    const tools = (options.recentTools ?? [])
      .map((t) =>
        t
          .toLowerCase()
          .replace(/^mcp__/, '')
          .split(/__|[^a-z0-9]+/)
          .filter((p) => p.length > 2),
      )
      .filter((p) => p.length);

    const scored: Ranked[] = [];
    for (const entry of this.docs) {
      let score = 0;
      for (const [term, weight] of weights) {
        // Each field saturates on its own, then fields add up: a word in a short name or
        // description says more than the same word deep in a long body.
        let termScore = 0;
        for (const field of FIELDS) {
          const tf = entry.tf[field].get(term);
          if (!tf) continue;
          const norm = 1 - B + (B * entry.len[field]) / this.avgLen[field];
          termScore += WEIGHT[field] * ((tf * (K1 + 1)) / (tf + K1 * norm));
        }
        if (termScore === 0) continue;
        score += weight * this.idf(term) * termScore;
      }
      if (score === 0) continue;
      if (tools.length && isToolUsage(entry.doc, tools)) score *= 0.3;
      // Recency breaks near-ties: at most +5% for a memory saved today.
      score *= 1 + 0.05 * Math.exp(-Math.max(0, now - entry.doc.mtimeMs) / (90 * 86_400_000));
      scored.push({ doc: entry.doc, score });
    }
    scored.sort((a, b) => b.score - a.score || b.doc.mtimeMs - a.doc.mtimeMs || (a.doc.path < b.doc.path ? -1 : 1));
    const best = scored[0]?.score ?? 0;
    return scored.filter((r) => r.score >= best * RELATIVE_CUTOFF).slice(0, limit);
  }
}

/** A how-to or reference memory about a tool already in use (and not a warning about it). */
function isToolUsage(doc: RecallDoc, tools: string[][]): boolean {
  const text = `${doc.name} ${doc.description} ${doc.body}`.toLowerCase();
  if (WARNING.test(text)) return false;
  const mentions = tools.some((parts) => parts.every((p) => text.includes(p)));
  return mentions && (doc.type === 'reference' || /\b(?:usage|how to use|command|syntax|flags?|options?)\b/i.test(text));
}
