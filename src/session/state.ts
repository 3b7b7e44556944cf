/**
 * session's own state under `<memdir>/.memdir/session/`: one cursor per session (where the notes were
 * last written, and how big the conversation was then), the pending requests of calls that arrived
 * during a run, the run lock, and the capped log of detached hook runs. The notes themselves are
 * `.memdir/sessions/<id>.md` (src/store/session-notes.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeStateFile } from '../store/atomic.js';
import { sessionFileName } from '../store/session-notes.js';
import { openStateFile, statePath } from '../store/state-path.js';

export interface SessionCursor {
  /** Size of the transcript when a run last read it: the hook's "nothing new" check. */
  transcriptBytes: number;
  /** When the notes were last written: the last message then, the conversation's estimated tokens, the transcript's size. Null before the first. */
  written: { cursor: string | null; tokens: number; transcriptBytes: number; at: string } | null;
}

export interface PendingRequest {
  transcript: string;
  sessionId: string | null;
}

export const RUN_LOCK = 'session/run.lock';
export const LOG_FILE = 'session.log';
const LOG_MAX_BYTES = 1024 * 1024;

const cursorName = (sessionId: string) => path.join('session', 'cursors', `${sessionFileName(sessionId)}.json`);

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function readCursor(dir: string, sessionId: string): SessionCursor | undefined {
  const state = readJson<SessionCursor>(statePath(dir, cursorName(sessionId)));
  return state && typeof state.transcriptBytes === 'number' && (state.written === null || typeof state.written?.tokens === 'number') ? state : undefined;
}

export function writeCursor(dir: string, sessionId: string, cursor: SessionCursor): void {
  writeStateFile(dir, cursorName(sessionId), `${JSON.stringify(cursor)}\n`);
}

const PENDING = path.join('session', 'pending');
const pendingName = (request: PendingRequest) => `${(request.sessionId ?? request.transcript).replace(/[^A-Za-z0-9._-]/g, '_').slice(-100)}.json`;

/** One pending request per session (latest wins within it), as extract keeps them. */
export function writePending(dir: string, request: PendingRequest): void {
  writeStateFile(dir, path.join(PENDING, pendingName(request)), JSON.stringify(request));
}

function pendingFiles(dir: string): string[] {
  const folder = statePath(dir, PENDING);
  try {
    return fs
      .readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => path.join(folder, name));
  } catch {
    return [];
  }
}

export function hasPending(dir: string): boolean {
  return pendingFiles(dir).length > 0;
}

/** A pending request, removed so that it runs once. */
export function takePending(dir: string): PendingRequest | undefined {
  for (const file of pendingFiles(dir)) {
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

/** The log of detached runs, opened for appending (rotated past 1 MB, one old copy kept). */
export function openLog(dir: string): number {
  const file = statePath(dir, LOG_FILE);
  try {
    if (fs.lstatSync(file).size > LOG_MAX_BYTES) fs.renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
  return openStateFile(dir, LOG_FILE, 'append');
}
