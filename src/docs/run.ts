/**
 * `memdir docs`: the repository's Magic Docs, and after a turn that read one, that doc brought up to
 * date by one structured model call (docs/architecture.md#magic-docs). Offline (the local engine) it
 * lists the docs and what the session touched that concerns each, and writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemdirError } from '../core/errors.js';
import { lazyRequire } from '../core/lazy.js';
import { checkRewrite, type RewriteCheck } from '../core/magic-doc.js';
import { messages } from '../core/messages.js';
import { checkReadable, loadTranscript } from '../claude-code/read-transcript.js';
import { messagesAfter, type Transcript } from '../claude-code/transcript.js';
import { ModelError, type ModelOptions } from '../llm/model.js';
import { writeFileAtomic } from '../store/atomic.js';
import { withDirLock } from '../store/lock.js';
import { askForDoc } from './claude.js';
import { findMagicDocs, type MagicDoc, readDoc, type SkippedDoc } from './find.js';
import { drainRequests, readCursor, RUN_LOCK, whileRunning, writeCursor, writePending } from './state.js';
import { type Concern, concerns, newFacts, readsDoc, TOOL_RESULT_CHARS, touchedBy } from './turn.js';

/** Most docs one run asks the model about: a turn that read a whole folder of them costs this many calls, not more. */
export const MAX_DOCS_PER_RUN = 10;

export type DocOutcome = 'listed' | 'not-read' | 'unchanged' | 'updated' | 'refused' | 'failed';

export interface DocReport {
  path: string;
  title: string;
  instructions: string | null;
  /** Read in the new part of the transcript (false without one). */
  read: boolean;
  /** What the new part touched that concerns the doc. */
  touched: Concern[];
  outcome: DocOutcome;
  /** Why it was refused or failed. */
  reason?: string;
  /** The change as a unified diff (updated, and with --dry-run what would be). */
  diff?: string;
  /** Whether the new text was written (false with --dry-run). */
  written?: boolean;
}

export interface DocsResult {
  status: 'done' | 'coalesced';
  engine: 'local' | 'claude';
  root: string;
  transcript: string | null;
  sessionId: string | null;
  cursor: { before: string | null; after: string | null };
  newMessages: number;
  lines: { read: number; malformed: number };
  docs: DocReport[];
  skipped: SkippedDoc[];
  /** More `.md` files than memdir looks at: the rest were not. */
  truncated: boolean;
  dryRun: boolean;
}

export interface DocsOptions {
  /** The repository's top folder. */
  root: string;
  /** The memory directory, where the per-session cursor and the run lock live. */
  dir: string;
  /** A transcript file, `-` for stdin, or none (list the docs only). */
  transcript?: string | undefined;
  sessionId?: string | undefined;
  engine: 'local' | 'claude';
  model?: string | undefined;
  dryRun: boolean;
  info?: ((text: string) => void) | undefined;
}

function sessionOf(options: DocsOptions, transcript: Transcript, label: string): string | null {
  if (options.sessionId) return options.sessionId;
  const fromLines = transcript.messages.find((m) => m.sessionId)?.sessionId;
  if (fromLines) return fromLines;
  return label === '-' ? null : path.basename(label).replace(/\.jsonl$/, '');
}

function unifiedDiff(file: string, before: string, after: string): string {
  const { createTwoFilesPatch } = lazyRequire<typeof import('diff')>('diff');
  return createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after);
}

/** The sentence for a refused rewrite. */
function refusal(check: RewriteCheck): string {
  switch (check.problem) {
    case 'header':
      return messages.docsRefusedHeader();
    case 'growth':
      return messages.docsRefusedGrowth();
    case 'too-large':
      return messages.docsRefusedTooLarge();
    case 'secret':
      return messages.docsRefusedSecret(check.rule ?? 'a secret rule');
    case 'nul':
      return messages.docsRefusedNul();
    default:
      return messages.docsRefusedEmpty();
  }
}

/**
 * Writes `text` over the doc only if it is still the plain file inside the repository that was read
 * (no link anywhere on its path, the same bytes as `expected`), atomically, keeping its mode.
 */
function writeDoc(root: string, doc: MagicDoc, expected: string, text: string): string | undefined {
  const now = readDoc(doc);
  if ('reason' in now) return now.reason;
  if (now.text !== expected) return messages.docsChangedSinceRead();
  let real: string;
  try {
    real = fs.realpathSync(doc.file);
  } catch (error) {
    return messages.unreadable(doc.path, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  const relative = path.relative(root, real);
  if (real !== doc.file || relative.startsWith('..') || path.isAbsolute(relative) || fs.lstatSync(doc.file).isSymbolicLink()) return messages.docsOutsideRepository();
  try {
    writeFileAtomic(doc.file, text);
  } catch (error) {
    // A read-only doc, a full disk: this doc is left as it was, the others still get their turn.
    if (error instanceof MemdirError) return error.message;
    throw error;
  }
  return undefined;
}

/** One doc with the claude engine: asked, checked, written (or with `dryRun` only diffed). */
async function updateDoc(report: DocReport, doc: MagicDoc, root: string, facts: string, options: DocsOptions): Promise<{ unavailable: boolean }> {
  const read = readDoc(doc);
  if ('reason' in read) {
    Object.assign(report, { outcome: 'refused', reason: read.reason });
    return { unavailable: false };
  }
  const modelOptions: ModelOptions = { model: options.model, timeoutMs: 60_000 };
  let answer: string | undefined;
  try {
    answer = (await askForDoc(doc, read.text, facts, modelOptions)).text;
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    Object.assign(report, { outcome: 'failed', reason: error.message });
    return { unavailable: error.kind !== 'invalid' };
  }
  if (answer === undefined) {
    report.outcome = 'unchanged';
    return { unavailable: false };
  }
  const check = checkRewrite(read.text, answer);
  if (check.problem) {
    Object.assign(report, { outcome: 'refused', reason: refusal(check) });
    return { unavailable: false };
  }
  if (check.text === read.text) {
    report.outcome = 'unchanged';
    return { unavailable: false };
  }
  report.diff = unifiedDiff(doc.path, read.text, check.text);
  if (options.dryRun) {
    Object.assign(report, { outcome: 'updated', written: false });
    return { unavailable: false };
  }
  const problem = writeDoc(root, doc, read.text, check.text);
  if (problem) Object.assign(report, { outcome: 'refused', reason: problem, diff: undefined });
  else Object.assign(report, { outcome: 'updated', written: true });
  return { unavailable: false };
}

/** The name of a temp file the store's atomic write leaves beside `file` when its process dies before the rename. */
const leftoverTemp = (file: string) => new RegExp(`^\\.memdir-tmp-[0-9a-f]{12}-${path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.tmp$`);

/**
 * Removes what a run killed mid-write left beside each doc. Called holding the run lock: no other
 * docs run is writing, so such a file is a dead run's and holds nothing the doc lacks.
 */
function sweepLeftovers(docs: readonly MagicDoc[]): void {
  for (const doc of docs) {
    const folder = path.dirname(doc.file);
    const pattern = leftoverTemp(doc.file);
    let names: string[];
    try {
      names = fs.readdirSync(folder).filter((name) => pattern.test(name));
    } catch {
      continue;
    }
    for (const name of names) fs.rmSync(path.join(folder, name), { force: true });
  }
}

/** The docs found, each only listed: a run's result before it reads the transcript, or in place of a run it handed over. */
function listedDocs(options: DocsOptions, found: Awaited<ReturnType<typeof findMagicDocs>>, status: DocsResult['status'], sessionId: string | null): DocsResult {
  return {
    status,
    engine: options.engine,
    root: found.root,
    transcript: options.transcript ?? null,
    sessionId,
    cursor: { before: null, after: null },
    newMessages: 0,
    lines: { read: 0, malformed: 0 },
    docs: found.docs.map((doc) => ({ path: doc.path, title: doc.title, instructions: doc.instructions ?? null, read: false, touched: [], outcome: 'listed' })),
    skipped: found.skipped,
    truncated: found.truncated,
    dryRun: options.dryRun,
  };
}

/** One pass: the docs, the new part of the transcript, and per doc what it calls for. */
async function docsOnce(options: DocsOptions): Promise<DocsResult> {
  const found = await findMagicDocs(options.root);
  const root = found.root;
  const result = listedDocs(options, found, 'done', null);
  if (!options.transcript) return result;
  if (options.engine === 'claude' && !options.dryRun) sweepLeftovers(found.docs);
  const { transcript, bytes } = await loadTranscript(options.transcript === '-' ? process.stdin : options.transcript, { toolResultChars: TOOL_RESULT_CHARS });
  checkReadable(options.transcript, transcript);
  const sessionId = sessionOf(options, transcript, options.transcript);
  const before = sessionId ? (readCursor(options.dir, sessionId)?.cursor ?? null) : null;
  const after = messagesAfter(transcript, before);
  const last = transcript.messages.at(-1)?.uuid || before;
  Object.assign(result, {
    sessionId,
    cursor: { before, after: before },
    newMessages: after.messages.length,
    lines: { read: transcript.counts.lines, malformed: transcript.counts.malformed },
  });
  const touched = touchedBy(after.messages, root);
  let facts: string | undefined;
  let unavailable = false;
  let asked = 0;
  for (const [i, doc] of found.docs.entries()) {
    const report = result.docs[i]!;
    report.read = readsDoc(after.messages, doc, root);
    const read = readDoc(doc);
    report.touched = 'text' in read ? concerns(doc, read.text, touched) : [];
    if (options.engine === 'local') continue;
    if (!report.read) {
      report.outcome = 'not-read';
      continue;
    }
    if (asked === MAX_DOCS_PER_RUN) {
      Object.assign(report, { outcome: 'failed', reason: messages.docsOverRunLimit(MAX_DOCS_PER_RUN) });
      continue;
    }
    if (unavailable) {
      // The API is down or refuses the key: the next docs would fail the same way; they wait for the next turn.
      Object.assign(report, { outcome: 'failed', reason: messages.docsNotTried() });
      continue;
    }
    options.info?.(messages.docsUpdating(doc.path));
    facts ??= newFacts(after.messages, root);
    asked++;
    unavailable = (await updateDoc(report, doc, root, facts, options)).unavailable;
  }
  // The local engine writes nothing, not even the cursor; a run the model could not serve is tried again next turn.
  if (options.engine === 'claude' && !options.dryRun && !unavailable && sessionId) {
    writeCursor(options.dir, sessionId, last ?? null, bytes);
    result.cursor.after = last ?? null;
  }
  return result;
}

/** The runs asked for while this one ran, each once. */
function drainPending(options: DocsOptions): Promise<void> {
  return drainRequests(options.dir, {
    run: (request) => docsOnce({ ...options, transcript: request.transcript, sessionId: request.sessionId ?? undefined }),
    done: (request, trailing) => options.info?.(messages.docsTrailingRun(request.transcript, trailing.docs.filter((d) => d.outcome === 'updated').length)),
    failed: (request, error) => options.info?.(messages.docsTrailingRunFailed(request.transcript, error.message)),
  });
}

/**
 * List the Magic Docs, and with a transcript and the claude engine update the ones its new part read.
 * One updating run at a time per memory directory: a run that finds another in progress leaves its
 * request for that one to take next (latest wins per session). Listing and `dryRun` take no lock.
 */
export async function runDocs(options: DocsOptions): Promise<DocsResult> {
  if (options.engine === 'local' || options.dryRun || !options.transcript) return docsOnce(options);
  fs.mkdirSync(options.dir, { recursive: true });
  // A stream cannot be handed over to another run: it waits its turn.
  if (options.transcript === '-') return withDirLock(options.dir, () => docsOnce(options), { name: RUN_LOCK });
  const first = await whileRunning(options.dir, async () => {
    const result = await docsOnce(options);
    await drainPending(options);
    return result;
  });
  if (first) return first.value;
  writePending(options.dir, { transcript: path.resolve(options.transcript), sessionId: options.sessionId ?? null });
  // The runner may have finished between our try and the request: take it ourselves then.
  const late = await whileRunning(options.dir, () => drainPending(options));
  return listedDocs(options, await findMagicDocs(options.root), late ? 'done' : 'coalesced', options.sessionId ?? null);
}
