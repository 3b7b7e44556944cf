import fs from 'node:fs';
import path from 'node:path';
import { STATE_DIR } from '../core/taxonomy.js';
import { writeFileAtomic } from '../store/atomic.js';
import { withDirLock } from '../store/lock.js';
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

/**
 * Keep what fits the session's 60 KB budget, record it as surfaced, and
 * return the additional context for the prompt ('' when nothing is new).
 */
export async function takeForSession(dir: string, sessionId: string, result: RecallResult): Promise<string> {
  return withDirLock(dir, () => {
    const state = readSession(dir, sessionId);
    const parts: string[] = [];
    for (const memory of result.memories) {
      if (state.surfaced.includes(memory.path)) continue;
      const size = Buffer.byteLength(memory.text);
      if (state.bytes + size > SESSION_BUDGET_BYTES) break;
      parts.push(memory.text);
      state.surfaced.push(memory.path);
      state.bytes += size;
    }
    if (parts.length > 0) writeFileAtomic(stateFile(dir, sessionId), JSON.stringify(state));
    return parts.join('\n\n');
  });
}
