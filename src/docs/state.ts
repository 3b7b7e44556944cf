/**
 * `memdir docs`' own state under `<memdir>/.memdir/docs/`: one cursor per session (the last message
 * already looked at) in `docs/sessions/`, and the pending requests, run lock and log every detached
 * run keeps (src/store/detached-run.ts).
 */
import path from 'node:path';
import * as run from '../store/detached-run.js';

export type DocsCursor = run.MessageCursor;

const FEATURE = 'docs';
/** Held for a whole run: one run at a time per memory directory. */
export const RUN_LOCK = run.runLockName(FEATURE);
const cursorFile = (sessionId: string) => path.join(FEATURE, 'sessions', `${run.safeFileName(sessionId, 'last')}.json`);

export const readCursor = (dir: string, sessionId: string) => run.readCursorFile<DocsCursor>(dir, cursorFile(sessionId), run.isMessageCursor);
export const writeCursor = (dir: string, sessionId: string, cursor: string | null, transcriptBytes: number) =>
  run.writeCursorFile(dir, cursorFile(sessionId), run.messageCursor(cursor, transcriptBytes));
export const writePending = (dir: string, request: run.PendingRequest) => run.writePending(dir, FEATURE, request);
export const whileRunning = <T>(dir: string, action: () => Promise<T>) => run.whileRunning(dir, FEATURE, action);
export const drainRequests = <R>(dir: string, trailing: run.TrailingRuns<R>) => run.drainPending(dir, FEATURE, trailing);
