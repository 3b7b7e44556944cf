/**
 * extract's own state under `<memdir>/.memdir/extract/`: one cursor per session (the last message
 * already processed) in `extract/sessions/`, and the pending requests, run lock and log every
 * detached run keeps (src/store/detached-run.ts).
 */
import path from 'node:path';
import * as run from '../store/detached-run.js';

export type SessionCursor = run.MessageCursor;

const FEATURE = 'extract';
export const RUN_LOCK = run.runLockName(FEATURE);
const cursorFile = (sessionId: string) => path.join(FEATURE, 'sessions', `${run.safeFileName(sessionId, 'first')}.json`);

export const readCursor = (dir: string, sessionId: string) => run.readCursorFile<SessionCursor>(dir, cursorFile(sessionId), run.isMessageCursor);
export const writeCursor = (dir: string, sessionId: string, cursor: string | null, transcriptBytes: number) =>
  run.writeCursorFile(dir, cursorFile(sessionId), run.messageCursor(cursor, transcriptBytes));
export const runCoalesced = <T, R>(dir: string, request: run.PendingRequest | undefined, first: () => Promise<T>, trailing: run.TrailingRuns<R>) =>
  run.runCoalesced(dir, FEATURE, request, first, trailing);
