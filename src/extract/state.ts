/**
 * extract's own state under `<memdir>/.memdir/extract/`: one cursor per session (the last message
 * already processed) in `extract/sessions/`, and the pending requests, run lock and log every
 * detached run keeps (src/store/detached-run.ts).
 */
import path from 'node:path';
import { detachedRunState, isMessageCursor, type MessageCursor, messageCursor, safeFileName } from '../store/detached-run.js';

export type SessionCursor = MessageCursor;

const state = detachedRunState<SessionCursor>({
  feature: 'extract',
  cursorFile: (sessionId) => path.join('extract', 'sessions', `${safeFileName(sessionId, 'first')}.json`),
  isCursor: isMessageCursor,
});

export const { RUN_LOCK, readCursor, writePending, hasPending, takePending, openLog } = state;

export function writeCursor(dir: string, sessionId: string, cursor: string | null, transcriptBytes: number): void {
  state.writeCursor(dir, sessionId, messageCursor(cursor, transcriptBytes));
}
