/**
 * The record of what the prompt hook (`recall --hook`) surfaced in one Claude Code session,
 * `.memdir/recall-sessions/<session>.json`: recall skips what it already gave, and the
 * SessionStart hook brings it back after a compaction or on resume.
 */
import fs from 'node:fs';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { renderMemory } from '../core/render-memory.js';
import { confinedPath } from './confine.js';
import { readMemoryFile } from './files.js';
import { statePath } from './state-path.js';

export interface RecallSession {
  /** Memory files (relative to the directory) in the order they were surfaced. */
  surfaced: string[];
  bytes: number;
}

export function recallSessionFile(dir: string, sessionId: string): string {
  return statePath(dir, 'recall-sessions', `${sessionId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)}.json`);
}

/** The session's record; a new session, or a record that cannot be read, is an empty one. */
export function readRecallSession(dir: string, sessionId: string): RecallSession {
  try {
    const state = JSON.parse(fs.readFileSync(recallSessionFile(dir, sessionId), 'utf8')) as RecallSession;
    if (Array.isArray(state.surfaced) && state.surfaced.every((p) => typeof p === 'string') && typeof state.bytes === 'number') return state;
  } catch {
    // a new session, or state we cannot read: start fresh
  }
  return { surfaced: [], bytes: 0 };
}

/**
 * What the SessionStart hook brings back after a compaction (or on resume): at most this many bytes
 * of rendered memories, the most recently surfaced first. Six memories at recall's 4 KB cap; the
 * rest of the session's 60 KB stays out of a context that compaction just made room in.
 */
export const BROUGHT_BACK_BUDGET_BYTES = 24_000;

/**
 * The memories the prompt hook surfaced in `sessionId`, rendered as recall rendered them (freshness
 * header, 200 lines / 4 KB cap), in the order surfaced, within BROUGHT_BACK_BUDGET_BYTES. A file
 * that no longer exists, cannot be read or leads out of the directory is skipped.
 */
export function memoriesToBringBack(dir: string, sessionId: string, nowMs = Date.now()): { path: string; text: string }[] {
  const kept: { path: string; text: string }[] = [];
  let bytes = 0;
  for (const rel of [...readRecallSession(dir, sessionId).surfaced].reverse()) {
    let read: ReturnType<typeof readMemoryFile>;
    try {
      const file = confinedPath(dir, rel);
      read = readMemoryFile(file, { maxBytes: MAX_TOPIC_FILE_BYTES, prefix: true });
      if (!read?.ok) continue;
      const text = renderMemory(file, read.text, read.mtimeMs, nowMs);
      const size = Buffer.byteLength(text);
      if (bytes + size > BROUGHT_BACK_BUDGET_BYTES) break;
      bytes += size;
      kept.push({ path: rel, text });
    } catch {
      // gone, unreadable or outside the directory: not brought back
    }
  }
  return kept.reverse();
}
