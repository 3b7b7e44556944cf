/**
 * `memdir docs`' own state under `<memdir>/.memdir/docs/`: one cursor per session (the last message
 * already looked at) in `docs/sessions/`, and the pending requests, run lock and log every detached
 * run keeps (src/store/detached-run.ts).
 */
import path from 'node:path';
import { detachedRunState, isMessageCursor, type MessageCursor, messageCursor, safeFileName } from '../store/detached-run.js';

export type DocsCursor = MessageCursor;

const state = detachedRunState<DocsCursor>({
  feature: 'docs',
  cursorFile: (sessionId) => path.join('docs', 'sessions', `${safeFileName(sessionId, 'last')}.json`),
  isCursor: isMessageCursor,
});

export const { RUN_LOCK, readCursor, writePending, takePending, openLog } = state;

export function writeCursor(dir: string, sessionId: string, cursor: string | null, transcriptBytes: number): void {
  state.writeCursor(dir, sessionId, messageCursor(cursor, transcriptBytes));
}
