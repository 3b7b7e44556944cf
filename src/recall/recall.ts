import fs from 'node:fs';
import path from 'node:path';
import { ModelError } from '../llm/model.js';
import { settleDirectory } from '../store/lock.js';
import { memoryParts } from './document.js';
import { StaleIndexError } from './index-file.js';
import { loadCorpus, readForRecall } from './load.js';
import { type Coverage, type Ranking, type RecallDoc, RecallIndex } from './rank.js';
import { renderMemory } from '../core/render-memory.js';
import { fuseRankings } from './dense.js';
import { fieldDefault } from '../config/sections.js';
import { messages } from '../core/messages.js';

export interface RecallOptions {
  dir: string;
  query: string;
  limit?: number;
  recentTools?: string[];
  /** Memories already shown this session: excluded before ranking, so they take no slot. */
  alreadySurfaced?: string[];
  /** Return nothing when even the best memory is a weak match (the prompt hook). Local engine only. */
  abstain?: boolean;
  engine?: 'local' | 'claude';
  model?: string | undefined;
  timeoutMs?: number;
  nowMs?: number;
  /**
   * Local engine: add the sentence model's scores to the lexical ones when its optional packages are
   * installed and the query is mostly in Latin letters (default true; never with `abstain`, the prompt hook).
   */
  semantic?: boolean;
  /** Where a fallback from claude to local is announced. */
  warn?: (message: string) => void;
}

export interface RecalledMemory {
  path: string;
  file: string;
  score: number | null;
  mtimeMs: number;
  text: string;
}

export interface RecallResult {
  engine: 'local' | 'claude';
  memories: RecalledMemory[];
  /** Local engine: how much of the query the best memory covers, and whether that is enough to answer. */
  confidence?: { coverage: Coverage; confident: boolean };
  /** Local engine: whether the sentence model's scores were added (see `RecallOptions.semantic`). */
  semantic?: boolean;
  /** Local engine: whether the stored index was up to date (false: files were read and the index rewritten). */
  indexCurrent?: boolean;
  /** Topic files the local engine could not read (not UTF-8, binary): left out of the ranking (`unreadableProblem` says why). */
  unreadable?: string[];
  usage?: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
/**
 * Lines one run may embed when the words found nothing and every memory is a candidate (each
 * line costs a model call, so this bounds one run); a large directory's lines are embedded over several runs, meanwhile its memories
 * with lines left out are not scored.
 */
const MEANING_ALONE_NEW_LINES = 2000;

/** The memories that matter for a query (docs/architecture.md#recall), rendered with freshness headers. */
export async function recall(options: RecallOptions): Promise<RecallResult> {
  const limit = Math.max(0, Math.min(options.limit ?? fieldDefault('recall', 'limit'), 20));
  const now = options.nowMs ?? Date.now();
  if (!fs.existsSync(options.dir) || limit === 0) return { engine: 'local', memories: [] };
  await settleDirectory(options.dir);
  const skip = new Set(options.alreadySurfaced ?? []);
  const recentTools = options.recentTools ?? [];
  const read = (rel: string, score: number | null, mtimeMs: number): RecalledMemory[] => {
    const file = path.join(options.dir, rel);
    const content = readForRecall(file);
    return content ? [{ path: rel, file, score, mtimeMs, text: renderMemory(file, content.text, mtimeMs, now) }] : [];
  };

  if (options.engine === 'claude') {
    // Loaded here: the scanner's directory walk (fast-glob) would slow every local recall hook.
    const { scanMemories } = await import('../store/scan.js');
    const memories = scanMemories(options.dir).memories.filter((m) => !skip.has(m.path));
    if (memories.length === 0) return { engine: 'claude', memories: [] };
    try {
      const { selectWithClaude } = await import('./claude.js');
      const answer = await selectWithClaude({ query: options.query, memories, recentTools, limit }, { model: options.model, timeoutMs: options.timeoutMs ?? 10_000, maxRetries: 1 });
      if (answer.unknown.length) options.warn?.(messages.recallModelUnknownFiles(answer.unknown));
      const byPath = new Map(memories.map((m) => [m.path, m]));
      return { engine: 'claude', usage: answer.usage, memories: answer.value.flatMap((p) => read(p, null, byPath.get(p)!.mtimeMs)) };
    } catch (error) {
      if (!(error instanceof ModelError) || error.kind === 'auth') throw error;
      options.warn?.(messages.engineFellBack('recall', error.message));
    }
  }

  let unreadable: string[] = [];
  const load = (rebuild: boolean) => {
    unreadable = [];
    const corpus = loadCorpus(options.dir, { persist: true, rebuild, onUnreadable: (rel) => unreadable.push(rel) });
    return { ...corpus, all: corpus.docs, docs: skip.size === 0 ? corpus.docs : corpus.docs.filter((d) => !skip.has(d.path)) };
  };
  let corpus = load(false);
  // The text the ranker reads of a memory: name, description and body; the frontmatter's other keys are not the memory's words.
  const textOf = (doc: RecallDoc) => {
    const content = readForRecall(path.join(options.dir, doc.path));
    if (!content) return undefined;
    const { name, description, body } = memoryParts(doc.path, content.text);
    return `${name} ${description} ${body}`;
  };
  const trySemantic = options.semantic !== false && !options.abstain;
  // With the model, all the words' candidates (their best 30) take part in the fusion, not only the best `limit`.
  const rank = () => new RecallIndex(corpus.docs, corpus.postings).rank(options.query, { limit: trySemantic ? corpus.docs.length : limit, recentTools, textOf, nowMs: now, abstain: options.abstain });
  let lexical: Ranking;
  try {
    lexical = rank();
  } catch (error) {
    // The index read lazily turned out damaged: rank what the files say, and store that.
    if (!(error instanceof StaleIndexError)) throw error;
    corpus = load(true);
    lexical = rank();
  }
  const { docs } = corpus;
  const { coverage, confident } = lexical;
  let ranked = lexical.ranked;
  // Loaded here: the model's packages are heavy, and the prompt hook never asks for them. Only the
  // words' candidates need vectors; when the words found nothing, every memory does, a bounded share per run.
  const candidates = lexical.ranked.length > 0 ? lexical.ranked.map((r) => r.doc) : docs;
  const dense = trySemantic
    ? await (await import('./semantic.js')).semanticScores(options.dir, candidates, options.query, {
        all: corpus.all,
        maxNewLines: lexical.ranked.length > 0 ? undefined : MEANING_ALONE_NEW_LINES,
        warn: options.warn,
      })
    : undefined;
  if (dense) ranked = fuseRankings(lexical.ranked, docs, dense);
  return {
    engine: 'local',
    semantic: dense !== undefined,
    memories: ranked.slice(0, limit).flatMap((r) => read(r.doc.path, round(r.score), r.doc.mtimeMs)),
    confidence: { coverage: { all: round(coverage.all), known: round(coverage.known), words: coverage.words }, confident },
    indexCurrent: corpus.postings !== undefined,
    unreadable,
  };
}
