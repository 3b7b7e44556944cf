/**
 * extract's own state under `<memdir>/.memdir/extract/`: one cursor per session (the last
 * message already processed), the pending request of a call that arrived during a run, the
 * run lock, and the capped log of detached hook runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { STATE_DIR } from '../core/taxonomy.js';
import { writeFileAtomic } from '../store/atomic.js';

export interface SessionCursor {
  /** Uuid of the last message processed. */
  cursor: string | null;
  /** Size of the transcript when it was last read: the hook's "nothing new" check. */
  transcriptBytes: number;
  updatedAt: string;
}

/** What a coalesced call asks the running process to do next (latest wins). */
export interface PendingRequest {
  transcript: string;
  sessionId: string | null;
}

export const EXTRACT_STATE = `${STATE_DIR}/extract`;
/** Lock name under `.memdir/` held for a whole run (the directory lock is taken only to write). */
export const RUN_LOCK = 'extract/run.lock';
export const LOG_FILE = 'extract.log';
/** The log of detached runs is rotated (one old copy kept) past this size. */
const LOG_MAX_BYTES = 1024 * 1024;

const stateDir = (dir: string) => path.join(dir, EXTRACT_STATE);

function cursorFile(dir: string, sessionId: string): string {
  return path.join(stateDir(dir), 'sessions', `${sessionId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)}.json`);
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function readCursor(dir: string, sessionId: string): SessionCursor | undefined {
  const state = readJson<SessionCursor>(cursorFile(dir, sessionId));
  return state && (typeof state.cursor === 'string' || state.cursor === null) ? state : undefined;
}

export function writeCursor(dir: string, sessionId: string, cursor: string | null, transcriptBytes: number): void {
  writeFileAtomic(cursorFile(dir, sessionId), `${JSON.stringify({ cursor, transcriptBytes, updatedAt: new Date().toISOString() } satisfies SessionCursor)}\n`);
}

const pendingFile = (dir: string) => path.join(stateDir(dir), 'pending.json');

export function writePending(dir: string, request: PendingRequest): void {
  writeFileAtomic(pendingFile(dir), JSON.stringify(request));
}

export function hasPending(dir: string): boolean {
  return fs.existsSync(pendingFile(dir));
}

/** The pending request, removed so that it runs once. */
export function takePending(dir: string): PendingRequest | undefined {
  const file = pendingFile(dir);
  const taken = `${file}.${process.pid}`;
  try {
    fs.renameSync(file, taken);
  } catch {
    return undefined;
  }
  const request = readJson<PendingRequest>(taken);
  fs.rmSync(taken, { force: true });
  return request && typeof request.transcript === 'string' ? request : undefined;
}

/** Open the log of detached runs for appending, rotating it first when it has grown past its cap. */
export function openLog(dir: string): number {
  const file = path.join(dir, STATE_DIR, LOG_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    if (fs.statSync(file).size > LOG_MAX_BYTES) fs.renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
  return fs.openSync(file, 'a');
}
