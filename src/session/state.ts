/**
 * session's own state under `<memdir>/.memdir/session/`: one cursor per session (where the notes were
 * last written, and how big the conversation was then) in `session/cursors/`, and the pending
 * requests, run lock and log every detached run keeps (src/store/detached-run.ts). The notes
 * themselves are `.memdir/sessions/<id>.md` (src/store/session-notes.ts).
 */
import path from 'node:path';
import * as run from '../store/detached-run.js';
import { sessionFileName } from '../store/session-notes.js';

export interface SessionCursor {
  /** Size of the transcript when a run last read it: the hook's "nothing new" check. */
  transcriptBytes: number;
  /** When the notes were last written: the last message then, the conversation's estimated tokens, the transcript's size. Null before the first. */
  written: { cursor: string | null; tokens: number; transcriptBytes: number; at: string } | null;
}

const FEATURE = 'session';
const cursorFile = (sessionId: string) => path.join(FEATURE, 'cursors', `${sessionFileName(sessionId)}.json`);
const isCursor = (state: SessionCursor) => typeof state.transcriptBytes === 'number' && (state.written === null || typeof state.written?.tokens === 'number');

export const readCursor = (dir: string, sessionId: string) => run.readCursorFile(dir, cursorFile(sessionId), isCursor);
export const writeCursor = (dir: string, sessionId: string, cursor: SessionCursor) => run.writeCursorFile(dir, cursorFile(sessionId), cursor);
export const runCoalesced = <T, R>(dir: string, request: run.PendingRequest | undefined, first: () => Promise<T>, trailing: run.TrailingRuns<R>) =>
  run.runCoalesced(dir, FEATURE, request, first, trailing);
