/**
 * The state of a feature whose Stop hook starts a detached run (extract, session, docs), under
 * `<memdir>/.memdir/<feature>/`: one cursor per session, the pending requests of calls that arrived
 * during a run (one per session, latest wins), the run lock's name, and the capped log of detached
 * runs (`.memdir/<feature>.log`). Plain functions taking the feature's folder name, so a hook's fast
 * path bundles only the reads it makes. Each feature names its cursor's file and says what a valid one is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { IoError } from '../core/errors.js';
import { writeStateFile } from './atomic.js';
import { withDirLock } from './lock.js';
import { checkStatePath, openStateFile, statePath } from './state-path.js';

/** What a coalesced call asks the running process to do next (latest wins, per session). */
export interface PendingRequest {
  transcript: string;
  sessionId: string | null;
}

/** A cursor that is the last message a run has taken in, and how big the transcript was then. */
export interface MessageCursor {
  /** Uuid of the last message processed. */
  cursor: string | null;
  /** Size of the transcript when it was last read: the hook's "nothing new" check. */
  transcriptBytes: number;
  updatedAt: string;
}

export const isMessageCursor = (state: MessageCursor): boolean => typeof state.cursor === 'string' || state.cursor === null;

export const messageCursor = (cursor: string | null, transcriptBytes: number): MessageCursor => ({ cursor, transcriptBytes, updatedAt: new Date().toISOString() });

/** `name` made safe as a file name: other characters replaced, at most 100 kept (the first or the last). */
export function safeFileName(name: string, keep: 'first' | 'last'): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return keep === 'first' ? safe.slice(0, 100) : safe.slice(-100);
}

/** The log of detached runs is rotated (one old copy kept) past this size. */
const LOG_MAX_BYTES = 1024 * 1024;

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Lock name under `.memdir/` a feature holds for a whole run (the directory lock is taken only to write). */
export const runLockName = (feature: string) => path.join(feature, 'run.lock');

/** The log of a feature's detached runs, under `.memdir/`. */
export const runLogName = (feature: string) => `${feature}.log`;

/** The cursor in `.memdir/<file>`, or undefined when there is none or `isCursor` refuses what it holds. */
export function readCursorFile<C>(dir: string, file: string, isCursor: (state: C) => boolean): C | undefined {
  const state = readJson<C>(statePath(dir, file));
  return state && isCursor(state) ? state : undefined;
}

export function writeCursorFile(dir: string, file: string, cursor: unknown): void {
  writeStateFile(dir, file, `${JSON.stringify(cursor)}\n`);
}

// One pending request per session (latest wins within it): a call from another session that arrives
// during the same run must not replace this one, or that session's last turns wait for its next Stop.
const pendingFolder = (feature: string) => path.join(feature, 'pending');

export function writePending(dir: string, feature: string, request: PendingRequest): void {
  writeStateFile(dir, path.join(pendingFolder(feature), `${safeFileName(request.sessionId ?? request.transcript, 'last')}.json`), JSON.stringify(request));
}

/** The sessions' pending request files, oldest first (temp files of a write under way left out). */
function pendingFiles(dir: string, feature: string): string[] {
  const folder = statePath(dir, pendingFolder(feature));
  let names: string[];
  try {
    names = fs.readdirSync(folder).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const mtime = (name: string) => {
    try {
      return fs.statSync(path.join(folder, name)).mtimeMs;
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  };
  return names
    .map((name) => ({ name, at: mtime(name) }))
    .sort((a, b) => a.at - b.at || (a.name < b.name ? -1 : 1))
    .map(({ name }) => path.join(folder, name));
}

export function hasPending(dir: string, feature: string): boolean {
  return pendingFiles(dir, feature).length > 0;
}

/** A pending request (the oldest), removed so that it runs once; undefined when none is left. */
export function takePending(dir: string, feature: string): PendingRequest | undefined {
  for (const file of pendingFiles(dir, feature)) {
    // A link in a request's place is refused, naming it, as everywhere under `.memdir/`: never read through.
    checkStatePath(dir, file);
    const taken = `${file}.${process.pid}.taken`;
    try {
      fs.renameSync(file, taken);
    } catch {
      continue; // another process took it
    }
    const request = readJson<PendingRequest>(taken);
    fs.rmSync(taken, { force: true });
    if (request && typeof request.transcript === 'string') return request;
  }
  return undefined;
}

/** Open the log of the feature's detached runs for appending, rotating it first when it has grown past its cap. */
export function openRunLog(dir: string, feature: string): number {
  const name = runLogName(feature);
  const file = statePath(dir, name);
  try {
    if (fs.lstatSync(file).size > LOG_MAX_BYTES) fs.renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
  return openStateFile(dir, name, 'append');
}

/** Hold the feature's run lock for `action` without waiting; undefined when another process holds it. */
export async function whileRunning<T>(dir: string, feature: string, action: () => Promise<T>): Promise<{ value: T } | undefined> {
  try {
    return { value: await withDirLock(dir, action, { name: runLockName(feature), timeoutMs: 0 }) };
  } catch (error) {
    if (error instanceof IoError && /locked/.test(error.message)) return undefined;
    throw error;
  }
}

/** A run for a pending request, and what to say when it is done or has failed (a failure stops no other). */
export interface TrailingRuns<R> {
  run: (request: PendingRequest) => Promise<R>;
  done: (request: PendingRequest, result: R) => void;
  failed: (request: PendingRequest, error: Error) => void;
}

/** Trailing runs for the requests that arrived during this one, each once. */
export async function drainPending<R>(dir: string, feature: string, trailing: TrailingRuns<R>): Promise<void> {
  for (let request = takePending(dir, feature); request; request = takePending(dir, feature)) {
    try {
      trailing.done(request, await trailing.run(request));
    } catch (error) {
      trailing.failed(request, error as Error);
    }
  }
}

/**
 * One run at a time per memory directory and feature: `first`, then the requests that arrived
 * meanwhile, all under the run lock. A run over a file that finds another in progress leaves its
 * `request` (latest wins per session) for that one to take next and returns undefined; a stream
 * (no `request`: it cannot be handed over) waits its turn.
 */
export async function runCoalesced<T, R>(dir: string, feature: string, request: PendingRequest | undefined, first: () => Promise<T>, trailing: TrailingRuns<R>): Promise<{ value: T } | undefined> {
  const drain = () => drainPending(dir, feature, trailing);
  const run = async () => {
    const result = await first();
    await drain();
    return result;
  };
  if (!request) return { value: await withDirLock(dir, run, { name: runLockName(feature) }) };
  // A request left after a runner's last look (ours or another's) has no runner: take it.
  const takeLeftovers = async () => {
    while (hasPending(dir, feature) && (await whileRunning(dir, feature, drain))) {
      // a request may have come in while this pass drained: look again
    }
  };
  const ran = await whileRunning(dir, feature, run);
  if (!ran) writePending(dir, feature, request);
  await takeLeftovers();
  return ran;
}
