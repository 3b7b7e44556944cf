/**
 * The UserPromptSubmit hook: the memories that matter for the prompt, each
 * surfaced once per session within a 60 KB budget. Kept light (no yargs, no
 * directory glob): `bin/memdir.cjs` runs the plain `recall --hook` command
 * line through `takeFastPath` without the rest of the CLI, and the full CLI
 * calls the same `runRecallHook`.
 */
import fs from 'node:fs';
import { writeFileAtomic } from '../store/atomic.js';
import { IoError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { hookWarnings, readHookInput, runAsHook, startHookRun, writeHookContext, writeStdout, type ContextHookRun, type UserPromptSubmitInput } from '../claude-code/hook-io.js';
import { cachesProvisionally, skipsCodeCache } from '../shell/code-cache.js';
import { makeStateDir } from '../store/lock.js';
import { statePath } from '../store/state-path.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { recall, type RecallResult } from './recall.js';
import { recallSettings, type RecallFlags } from './settings.js';

/** What recall already gave one Claude Code session. */
interface SessionState {
  surfaced: string[];
  bytes: number;
}

const SESSION_BUDGET_BYTES = 60_000;

function stateFile(dir: string, sessionId: string): string {
  return statePath(dir, 'recall-sessions', `${sessionId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)}.json`);
}

function readSession(dir: string, sessionId: string): SessionState {
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
 * Keep what fits the session's 60 KB budget, record it in `state` (the session's record as read before
 * recalling) and on disk, and return the additional context for the prompt ('' when nothing is new).
 * No lock and no fsync: only this session's own hook writes its record, and
 * Claude Code runs them one prompt at a time; the atomic rename keeps a
 * record whole, and a record lost to a crash only means a memory shown again.
 * A record that cannot be written costs one line to `warn`, never the answer.
 */
export function takeForSession(dir: string, sessionId: string, state: SessionState, result: RecallResult, warn: (message: string) => void): string {
  const parts = selectForSession(state, result);
  if (parts.length > 0) {
    try {
      makeStateDir(dir);
      writeFileAtomic(stateFile(dir, sessionId), JSON.stringify(state), { durable: false });
    } catch (error) {
      if (!(error instanceof IoError)) throw error;
      warn(messages.sessionNotRecorded(error.message));
    }
  }
  return parts.join('\n\n');
}

export interface RecallHookOptions extends RecallFlags, ContextHookRun {}

export function runRecallHook(options: RecallHookOptions): Promise<number> {
  return runAsHook('recall', async () => {
    const input = await readHookInput<UserPromptSubmitInput>();
    const prompt = input.prompt?.trim() ?? '';
    // A one-word prompt ("continue", "yes") carries no topic to recall for.
    if (!/\s/.test(prompt)) return skipsCodeCache();
    const sessionId = input.session_id ?? 'no-session';
    const resolution = resolveMemoryDir({ dir: options.dir, cwd: input.cwd, trustProjectSettings: options.trustProjectSettings || undefined });
    for (const warning of resolution.warnings) options.warn(warning);
    const { dir } = resolution;
    if (!fs.existsSync(dir)) return skipsCodeCache();
    const session = readSession(dir, sessionId);
    const result = await recall({ dir, query: prompt, ...recallSettings(options, dir, input.cwd, options), alreadySurfaced: session.surfaced, abstain: true, timeoutMs: 5_000, warn: options.warn });
    // A prompt that found the index stale read the files: later prompts read the index.
    if (result.indexCurrent === false) cachesProvisionally();
    const context = takeForSession(dir, sessionId, session, result, options.warn);
    writeHookContext(options, 'UserPromptSubmit', context);
  });
}

/** The fast path of `recall --hook` (src/fast/recall.ts): it always takes the command. */
export function takeFastPath(args: RecallFlags & { dir?: string | undefined; trustProjectSettings: boolean; quiet: boolean }): boolean {
  return startHookRun(runRecallHook({ ...args, write: writeStdout, warn: hookWarnings(args.quiet) }));
}
