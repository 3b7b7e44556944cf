/**
 * extract's own state under `<memdir>/.memdir/extract/`: one cursor per session (the last
 * message already processed), the pending requests of calls that arrived during a run (one per session), the
 * run lock, and the capped log of detached hook runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeStateFile } from '../store/atomic.js';
import { openStateFile, statePath } from '../store/state-path.js';

export interface SessionCursor {
  /** Uuid of the last message processed. */
  cursor: string | null;
  /** Size of the transcript when it was last read: the hook's "nothing new" check. */
  transcriptBytes: number;
  updatedAt: string;
}

/** What a coalesced call asks the running process to do next (latest wins, per session). */
export interface PendingRequest {
  transcript: string;
  sessionId: string | null;
}

/** Lock name under `.memdir/` held for a whole run (the directory lock is taken only to write). */
export const RUN_LOCK = 'extract/run.lock';
export const LOG_FILE = 'extract.log';
/** The log of detached runs is rotated (one old copy kept) past this size. */
const LOG_MAX_BYTES = 1024 * 1024;

const cursorName = (sessionId: string) => path.join('extract', 'sessions', `${sessionId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)}.json`);

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function readCursor(dir: string, sessionId: string): SessionCursor | undefined {
  const state = readJson<SessionCursor>(statePath(dir, cursorName(sessionId)));
  return state && (typeof state.cursor === 'string' || state.cursor === null) ? state : undefined;
}

export function writeCursor(dir: string, sessionId: string, cursor: string | null, transcriptBytes: number): void {
  writeStateFile(dir, cursorName(sessionId), `${JSON.stringify({ cursor, transcriptBytes, updatedAt: new Date().toISOString() } satisfies SessionCursor)}\n`);
}

// One pending request per session (latest wins within it): a call from another session that arrives
// during the same run must not replace this one, or that session's last turns wait for its next Stop.
const PENDING = path.join('extract', 'pending');
const pendingDir = (dir: string) => statePath(dir, PENDING);
const pendingName = (request: PendingRequest) => `${(request.sessionId ?? request.transcript).replace(/[^A-Za-z0-9._-]/g, '_').slice(-100)}.json`;

export function writePending(dir: string, request: PendingRequest): void {
  writeStateFile(dir, path.join(PENDING, pendingName(request)), JSON.stringify(request));
}

/** The sessions' pending request files, oldest first (temp files of a write under way left out). */
function pendingFiles(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(pendingDir(dir)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const mtime = (name: string) => {
    try {
      return fs.statSync(path.join(pendingDir(dir), name)).mtimeMs;
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  };
  return names
    .map((name) => ({ name, at: mtime(name) }))
    .sort((a, b) => a.at - b.at || (a.name < b.name ? -1 : 1))
    .map(({ name }) => path.join(pendingDir(dir), name));
}

export function hasPending(dir: string): boolean {
  return pendingFiles(dir).length > 0;
}

/** A pending request (the oldest), removed so that it runs once. */
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

/** Open the log of detached runs for appending, rotating it first when it has grown past its cap. */
export function openLog(dir: string): number {
  const file = statePath(dir, LOG_FILE);
  try {
    if (fs.lstatSync(file).size > LOG_MAX_BYTES) fs.renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
  return openStateFile(dir, LOG_FILE, 'append');
}
