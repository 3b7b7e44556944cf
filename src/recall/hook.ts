/**
 * The UserPromptSubmit hook: the memories that matter for the prompt, each
 * surfaced once per session within a 60 KB budget. Kept light (no yargs, no
 * directory glob): `bin/memdir.cjs` runs the plain `recall --hook` command
 * line through `takeFastPath` without the rest of the CLI, and the full CLI
 * calls the same `runRecallHook`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic.js';
import { IoError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { hookWarnings, isHookProbe, readHookInput, runAsHook, startHookRun, writeHookContext, writeStdout, type ContextHookRun, type UserPromptSubmitInput } from '../claude-code/hook-io.js';
import { cachesProvisionally, skipsCodeCache } from '../shell/code-cache.js';
import { makeStateDir } from '../store/lock.js';
import { readRecallSession, recallSessionFile, type RecallSession } from '../store/recall-session.js';
import { memoriesClaudeCodeSurfaced } from '../claude-code/surfaced-memories.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { recall, type RecallResult } from './recall.js';
import { recallSettings, type RecallFlags } from './settings.js';

const SESSION_BUDGET_BYTES = 60_000;

/** What of `result` is new to the session and fits its 60 KB budget; `state` is updated to include it. */
function selectForSession(state: RecallSession, result: RecallResult): string[] {
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
export function takeForSession(dir: string, sessionId: string, state: RecallSession, result: RecallResult, warn: (message: string) => void): string {
  const parts = selectForSession(state, result);
  if (parts.length > 0) {
    try {
      makeStateDir(dir);
      writeFileAtomic(recallSessionFile(dir, sessionId), JSON.stringify(state), { durable: false });
    } catch (error) {
      if (!(error instanceof IoError)) throw error;
      warn(messages.sessionNotRecorded(error.message));
    }
  }
  return parts.join('\n\n');
}

export interface RecallHookOptions extends RecallFlags, ContextHookRun {
  /** `--debug`: one stderr line per memory left out, saying why. */
  debug?: boolean | undefined;
}

export type SkipReason = 'claude-code' | 'already-surfaced';

/**
 * The memories the prompt hook leaves out before ranking, each with why: those memdir surfaced
 * earlier in the session (its record), and those Claude Code's own recall surfaced (the transcript's
 * tail, absolute paths; only those inside `dir` are memories of this directory).
 */
export function skippedMemories(dir: string, surfacedBefore: readonly string[], transcriptPath: string | undefined): { path: string; reason: SkipReason }[] {
  const skipped: { path: string; reason: SkipReason }[] = surfacedBefore.map((rel) => ({ path: rel, reason: 'already-surfaced' }));
  for (const file of memoriesClaudeCodeSurfaced(transcriptPath)) {
    const rel = path.relative(dir, file);
    if (!rel || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel) || skipped.some((s) => s.path === rel)) continue;
    skipped.push({ path: rel, reason: 'claude-code' });
  }
  return skipped;
}

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
    const session = readRecallSession(dir, sessionId);
    const skipped = skippedMemories(dir, session.surfaced, input.transcript_path);
    // doctor's probe: ranking may rewrite the recall index and record the session.
    if (isHookProbe()) return;
    if (options.debug) for (const skip of skipped) options.warn(messages.recallSkipped(skip.path, skip.reason));
    const result = await recall({
      dir,
      query: prompt,
      ...recallSettings(options, dir, input.cwd, options),
      alreadySurfaced: skipped.map((s) => s.path),
      abstain: true,
      timeoutMs: 5_000,
      warn: options.warn,
    });
    // A prompt that found the index stale read the files: later prompts read the index.
    if (result.indexCurrent === false) cachesProvisionally();
    const context = takeForSession(dir, sessionId, session, result, options.warn);
    writeHookContext(options, 'UserPromptSubmit', context);
  });
}

/** The fast path of `recall --hook` (src/fast/recall.ts): it always takes the command. */
export function takeFastPath(args: RecallFlags & { dir?: string | undefined; trustProjectSettings: boolean; quiet: boolean; debug: boolean }): boolean {
  return startHookRun(runRecallHook({ ...args, write: writeStdout, warn: hookWarnings(args.quiet) }));
}
