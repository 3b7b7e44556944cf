import fs from 'node:fs';
import path from 'node:path';
import { STATE_DIR } from '../core/taxonomy.js';
import { writeFileAtomic } from '../store/atomic.js';
import { IoError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { BRIEF_LOCK_WAIT_MS, withDirLock } from '../store/lock.js';
import type { RecallResult } from './recall.js';

/** What recall already gave one Claude Code session. */
interface SessionState {
  surfaced: string[];
  bytes: number;
}

const SESSION_BUDGET_BYTES = 60_000;

function stateFile(dir: string, sessionId: string): string {
  return path.join(dir, STATE_DIR, 'recall-sessions', `${sessionId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)}.json`);
}

export function readSession(dir: string, sessionId: string): SessionState {
  try {
    const state = JSON.parse(fs.readFileSync(stateFile(dir, sessionId), 'utf8')) as SessionState;
    if (Array.isArray(state.surfaced) && typeof state.bytes === 'number') return state;
  } catch {
    // a new session, or state we cannot read: start fresh
  }
  return { surfaced: [], bytes: 0 };
}

/** What of `result` is new to the session and fits its 60 KB budget; `state` is updated to include it. */
function selectForSession(state: SessionState, result: RecallResult): string[] {
  const parts: string[] = [];
  for (const memory of result.memories) {
    if (state.surfaced.includes(memory.path)) continue;
    const size = Buffer.byteLength(memory.text);
    if (state.bytes + size > SESSION_BUDGET_BYTES) break;
    parts.push(memory.text);
    state.surfaced.push(memory.path);
    state.bytes += size;
  }
  return parts;
}

/**
 * Keep what fits the session's 60 KB budget, record it as surfaced, and
 * return the additional context for the prompt ('' when nothing is new).
 * A prompt is never kept waiting on a busy lock: after a brief wait the
 * answer goes out unrecorded, with one line to `warn`.
 */
export async function takeForSession(dir: string, sessionId: string, result: RecallResult, warn: (message: string) => void): Promise<string> {
  try {
    return await withDirLock(
      dir,
      () => {
        const state = readSession(dir, sessionId);
        const parts = selectForSession(state, result);
        if (parts.length > 0) writeFileAtomic(stateFile(dir, sessionId), JSON.stringify(state));
        return parts.join('\n\n');
      },
      { timeoutMs: BRIEF_LOCK_WAIT_MS },
    );
  } catch (error) {
    if (!(error instanceof IoError)) throw error;
    warn(messages.sessionNotRecorded(error.message));
    return selectForSession(readSession(dir, sessionId), result).join('\n\n');
  }
}
