/**
 * `memdir docs`' own state under `<memdir>/.memdir/docs/`: one cursor per session (the last message
 * already looked at), the pending requests of calls that arrived during a run, the run lock, and the
 * capped log of the runs the Stop hook starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeStateFile } from '../store/atomic.js';
import { openStateFile, statePath } from '../store/state-path.js';

export interface DocsCursor {
  /** Uuid of the last message looked at. */
  cursor: string | null;
  /** Size of the transcript when it was last read: the hook's "nothing new" check. */
  transcriptBytes: number;
  updatedAt: string;
}

export interface PendingRun {
  transcript: string;
  sessionId: string | null;
}

/** Lock name under `.memdir/` held for a whole run: one run at a time per memory directory. */
export const RUN_LOCK = 'docs/run.lock';
export const LOG_FILE = 'docs.log';
const LOG_MAX_BYTES = 1024 * 1024;
const PENDING = path.join('docs', 'pending');

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_').slice(-100);
const cursorName = (sessionId: string) => path.join('docs', 'sessions', `${safeName(sessionId)}.json`);

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function readCursor(dir: string, sessionId: string): DocsCursor | undefined {
  const state = readJson<DocsCursor>(statePath(dir, cursorName(sessionId)));
  return state && (typeof state.cursor === 'string' || state.cursor === null) ? state : undefined;
}

export function writeCursor(dir: string, sessionId: string, cursor: string | null, transcriptBytes: number): void {
  writeStateFile(dir, cursorName(sessionId), `${JSON.stringify({ cursor, transcriptBytes, updatedAt: new Date().toISOString() } satisfies DocsCursor)}\n`);
}

/** A call that found a run in progress leaves its request (latest wins per session) for that run to take next. */
export function writePending(dir: string, request: PendingRun): void {
  writeStateFile(dir, path.join(PENDING, `${safeName(request.sessionId ?? request.transcript)}.json`), JSON.stringify(request));
}

/** A pending request, removed so that it runs once; undefined when none is left. */
export function takePending(dir: string): PendingRun | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(statePath(dir, PENDING)).filter((name) => name.endsWith('.json'));
  } catch {
    return undefined;
  }
  for (const name of names.sort()) {
    const file = statePath(dir, PENDING, name);
    const taken = `${file}.${process.pid}.taken`;
    try {
      fs.renameSync(file, taken);
    } catch {
      continue; // another process took it
    }
    const request = readJson<PendingRun>(taken);
    fs.rmSync(taken, { force: true });
    if (request && typeof request.transcript === 'string') return request;
  }
  return undefined;
}

/** Open the log of detached runs for appending, rotating it first past its cap. */
export function openLog(dir: string): number {
  const file = statePath(dir, LOG_FILE);
  try {
    if (fs.lstatSync(file).size > LOG_MAX_BYTES) fs.renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
  return openStateFile(dir, LOG_FILE, 'append');
}
