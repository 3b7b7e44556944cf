/**
 * The state of a feature whose Stop hook starts a detached run (extract, session, docs), under
 * `<memdir>/.memdir/<feature>/`: one cursor per session, the pending requests of calls that arrived
 * during a run (one per session, latest wins), the run lock's name, and the capped log of detached
 * runs (`.memdir/<feature>.log`). Each feature names its cursor's file and says what a valid one is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeStateFile } from './atomic.js';
import { openStateFile, statePath } from './state-path.js';

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

export interface DetachedRunStateOptions<C> {
  /** The feature's folder under `.memdir/` (and the name of its log). */
  feature: string;
  /** The cursor file of a session, relative to `.memdir/`. */
  cursorFile: (sessionId: string) => string;
  /** Whether what a cursor file holds is one (anything else reads as no cursor). */
  isCursor: (state: C) => boolean;
}

export function detachedRunState<C>({ feature, cursorFile, isCursor }: DetachedRunStateOptions<C>) {
  const pending = path.join(feature, 'pending');
  const logFile = `${feature}.log`;
  // One pending request per session: a call from another session that arrives during the same run
  // must not replace this one, or that session's last turns wait for its next Stop.
  const pendingName = (request: PendingRequest) => `${safeFileName(request.sessionId ?? request.transcript, 'last')}.json`;

  /** The sessions' pending request files, oldest first (temp files of a write under way left out). */
  function pendingFiles(dir: string): string[] {
    const folder = statePath(dir, pending);
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

  return {
    /** Lock name under `.memdir/` held for a whole run (the directory lock is taken only to write). */
    RUN_LOCK: path.join(feature, 'run.lock'),
    LOG_FILE: logFile,

    readCursor(dir: string, sessionId: string): C | undefined {
      const state = readJson<C>(statePath(dir, cursorFile(sessionId)));
      return state && isCursor(state) ? state : undefined;
    },

    writeCursor(dir: string, sessionId: string, cursor: C): void {
      writeStateFile(dir, cursorFile(sessionId), `${JSON.stringify(cursor)}\n`);
    },

    writePending(dir: string, request: PendingRequest): void {
      writeStateFile(dir, path.join(pending, pendingName(request)), JSON.stringify(request));
    },

    hasPending(dir: string): boolean {
      return pendingFiles(dir).length > 0;
    },

    /** A pending request (the oldest), removed so that it runs once; undefined when none is left. */
    takePending(dir: string): PendingRequest | undefined {
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
    },

    /** Open the log of detached runs for appending, rotating it first when it has grown past its cap. */
    openLog(dir: string): number {
      const file = statePath(dir, logFile);
      try {
        if (fs.lstatSync(file).size > LOG_MAX_BYTES) fs.renameSync(file, `${file}.1`);
      } catch {
        // no log yet
      }
      return openStateFile(dir, logFile, 'append');
    },
  };
}
