/**
 * `session`: a Claude Code session's notes (`.memdir/sessions/<id>.md`) kept from its transcript.
 * Written once the conversation reaches `initTokens`, then again after `updateTokens` more when at
 * least `toolCalls` tool calls happened since or the last turn had none (the thresholds of Claude
 * Code's own session memory). One run at a time per memory directory (the run lock); a call that
 * arrives during a run leaves a pending request the running process takes before it lets go.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { tokensOfChars } from '../core/tokens.js';
import { checkReadable, loadTranscript } from '../claude-code/read-transcript.js';
import { messagesAfter, type Transcript } from '../claude-code/transcript.js';
import { ModelError } from '../llm/model.js';
import { TEMP_PREFIX, writeStateFile } from '../store/atomic.js';
import { readSessionNotes, SESSIONS_DIR, sessionFileName, sessionNotesFile } from '../store/session-notes.js';
import { statePath } from '../store/state-path.js';
import { notesWithClaude } from './claude.js';
import { type Folded, localNotes, type Notes, refNamer, renderNotes } from './notes.js';
import { readCursor, runCoalesced, type SessionCursor, writeCursor } from './state.js';

export interface Thresholds {
  /** Conversation tokens before the notes are first written. */
  initTokens: number;
  /** More conversation tokens before they are written again… */
  updateTokens: number;
  /** …when at least this many tool calls happened since, or the last turn had none. */
  toolCalls: number;
}

export interface SessionOptions extends Thresholds {
  dir: string;
  /** Transcript file, or a stream of its bytes (stdin). */
  transcript: string | AsyncIterable<Buffer | string>;
  /** Default: the transcript's own sessionId, else its file name. */
  sessionId?: string | undefined;
  engine?: 'local' | 'claude';
  model?: string | undefined;
  /** Most tokens the notes may take (characters / 4); the oldest worklog lines fold first. */
  maxTokens: number;
  /** Keep to the thresholds (the runs the Stop hook starts); by hand the notes are written whatever they say. */
  thresholds?: boolean;
  dryRun?: boolean;
  info?: (message: string) => void;
  warn?: (message: string) => void;
}

export type SessionStatus = 'written' | 'unchanged' | 'not-due' | 'no-messages' | 'coalesced';

export interface SessionResult {
  status: SessionStatus;
  /** Why the notes were or were not written (the thresholds' verdict). */
  reason: string;
  engine: 'local' | 'claude';
  fallback?: { from: 'claude'; reason: string; kind: ModelError['kind'] };
  sessionId: string | null;
  transcript: string;
  /** The notes file (written, or with --dry-run the one that would be). */
  notesFile: string | null;
  lines: { read: number; malformed: number };
  /** The conversation's estimated tokens now, and since the notes were last written. */
  conversationTokens: number;
  tokensSinceUpdate: number | null;
  toolCallsSinceUpdate: number;
  lastTurnHadToolCalls: boolean;
  /** The notes' estimated tokens, and the lines folded per section to stay within budget. */
  notesTokens: number;
  folded: Folded;
  /** With --dry-run: the notes that would be written. */
  notes?: string;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number } | null;
  dryRun: boolean;
}

function sessionOf(options: SessionOptions, transcript: Transcript, label: string): string {
  if (options.sessionId) return options.sessionId;
  const fromLines = transcript.messages.find((m) => m.sessionId)?.sessionId;
  if (fromLines) return fromLines;
  if (label === '-') throw new InputError('-', 'no line names its session (sessionId); give --session-id');
  return path.basename(label).replace(/\.jsonl$/, '');
}

/** The thresholds' verdict (pure): is it time to write the notes, and why. */
export function dueVerdict(
  written: SessionCursor['written'] | undefined,
  now: { tokens: number; toolCallsSince: number; lastTurnHadToolCalls: boolean },
  t: Thresholds,
): { due: boolean; reason: string } {
  if (!written) {
    return now.tokens >= t.initTokens
      ? { due: true, reason: `the conversation reached ${now.tokens} tokens (first notes at ${t.initTokens})` }
      : { due: false, reason: `the conversation has ${now.tokens} tokens, under ${t.initTokens} for the first notes` };
  }
  const grown = now.tokens - written.tokens;
  if (grown < t.updateTokens) return { due: false, reason: `${Math.max(0, grown)} tokens since the last update, under ${t.updateTokens}` };
  if (now.toolCallsSince >= t.toolCalls) return { due: true, reason: `${grown} tokens and ${now.toolCallsSince} tool calls since the last update` };
  if (!now.lastTurnHadToolCalls) return { due: true, reason: `${grown} tokens since the last update, and the last turn had no tool calls` };
  return { due: false, reason: `${now.toolCallsSince} tool call(s) since the last update, under ${t.toolCalls}, and the last turn had tool calls` };
}

/** One pass over one transcript: read, judge the thresholds, make the notes, write them and move the cursor. */
async function sessionOnce(options: SessionOptions): Promise<SessionResult> {
  const dryRun = options.dryRun ?? false;
  const { transcript, bytes, label } = await loadTranscript(options.transcript, { details: true });
  checkReadable(label, transcript);
  const sessionId = sessionOf(options, transcript, label);
  const state = readCursor(options.dir, sessionId);
  const written = state?.written ?? null;
  const conversationTokens = tokensOfChars(transcript.messages.reduce((sum, m) => sum + (m.chars ?? 0), 0));
  const since = written ? messagesAfter(transcript, written.cursor).messages : transcript.messages;
  const toolCallsSince = since.reduce((sum, m) => sum + m.toolUses.length, 0);
  const lastPrompt = transcript.messages.findLastIndex((m) => m.isHumanPrompt || m.command !== undefined);
  const lastTurnHadToolCalls = transcript.messages.slice(Math.max(0, lastPrompt)).some((m) => m.toolUses.length > 0);
  const verdict = dueVerdict(written, { tokens: conversationTokens, toolCallsSince, lastTurnHadToolCalls }, options);
  const result: SessionResult = {
    status: 'not-due',
    reason: verdict.reason,
    engine: options.engine ?? 'local',
    sessionId,
    transcript: label,
    notesFile: null,
    lines: { read: transcript.counts.lines, malformed: transcript.counts.malformed },
    conversationTokens,
    tokensSinceUpdate: written ? conversationTokens - written.tokens : null,
    toolCallsSinceUpdate: toolCallsSince,
    lastTurnHadToolCalls,
    notesTokens: 0,
    folded: {},
    usage: null,
    dryRun,
  };
  const remember = (notes: SessionCursor['written']) => {
    if (!dryRun) writeCursor(options.dir, sessionId, { transcriptBytes: bytes, written: notes });
  };
  if (transcript.messages.length === 0) {
    result.status = 'no-messages';
    result.reason = 'the transcript holds no messages';
    return result;
  }
  if ((options.thresholds ?? false) && !verdict.due) {
    remember(written);
    return result;
  }
  if (!(options.thresholds ?? false) && !verdict.due) result.reason = `written on request (${verdict.reason})`;

  const notes = await makeNotes(options, transcript, sessionId, result);
  const rendered = renderNotes(notes, { sessionId, maxTokens: options.maxTokens, ref: refNamer(transcript.positions.keys()) });
  result.notesTokens = rendered.tokens;
  result.folded = rendered.folded;
  result.notesFile = sessionNotesFile(options.dir, sessionId);
  if (dryRun) {
    result.notes = rendered.text;
    result.status = 'written';
    return result;
  }
  const before = readSessionNotes(options.dir, sessionId);
  if (before === rendered.text) result.status = 'unchanged';
  else {
    writeStateFile(options.dir, path.join(SESSIONS_DIR, `${sessionFileName(sessionId)}.md`), rendered.text);
    result.status = 'written';
  }
  remember({ cursor: transcript.messages.at(-1)?.uuid ?? null, tokens: conversationTokens, transcriptBytes: bytes, at: new Date().toISOString() });
  return result;
}

/** The notes from the engine asked for; a claude call that fails falls back to the local engine and says so. */
async function makeNotes(options: SessionOptions, transcript: Transcript, sessionId: string, result: SessionResult): Promise<Notes> {
  if (options.engine !== 'claude') return localNotes(transcript);
  try {
    const answer = await notesWithClaude(transcript, readSessionNotes(options.dir, sessionId), { model: options.model });
    result.usage = answer.usage;
    for (const dropped of answer.dropped) options.warn?.(messages.sessionLineLeftOut(dropped));
    return answer.notes;
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    result.engine = 'local';
    result.fallback = { from: 'claude', reason: error.message, kind: error.kind };
    options.warn?.(messages.sessionFellBack(error.message));
    return localNotes(transcript);
  }
}

/** Temp files of a notes write that was killed before its rename: only the run lock's holder writes notes, so under it any temp is a leftover. */
function sweepTemps(dir: string): void {
  try {
    const folder = statePath(dir, SESSIONS_DIR);
    for (const name of fs.readdirSync(folder)) if (name.startsWith(TEMP_PREFIX)) fs.rmSync(path.join(folder, name), { force: true });
  } catch {
    // no notes yet
  }
}

/**
 * Keep a session's notes from its transcript. With `dryRun`, nothing is written and no lock is
 * taken. Otherwise one run at a time per directory: a file whose run finds another in progress is
 * left as a pending request that the running process takes next; a stream (stdin) waits its turn.
 */
export async function keepSessionNotes(options: SessionOptions): Promise<SessionResult> {
  if (options.dryRun) return sessionOnce(options);
  const { dir } = options;
  fs.mkdirSync(dir, { recursive: true });
  const request = typeof options.transcript === 'string' ? { transcript: path.resolve(options.transcript), sessionId: options.sessionId ?? null } : undefined;
  const first = () => {
    sweepTemps(dir);
    return sessionOnce(options);
  };
  const ran = await runCoalesced(dir, request, first, {
    run: (pending) => sessionOnce({ ...options, transcript: pending.transcript, sessionId: pending.sessionId ?? undefined }),
    done: (pending, trailing) => options.info?.(messages.sessionTrailingRun(pending.transcript, `${trailing.status} (${trailing.reason})`)),
    failed: (pending, error) => options.info?.(messages.sessionTrailingRun(pending.transcript, `failed: ${error.message}`)),
  });
  if (ran) return ran.value;
  return {
    status: 'coalesced',
    reason: 'another run is in progress; it will take this transcript next',
    engine: options.engine ?? 'local',
    sessionId: options.sessionId ?? null,
    transcript: typeof options.transcript === 'string' ? options.transcript : '-',
    notesFile: null,
    lines: { read: 0, malformed: 0 },
    conversationTokens: 0,
    tokensSinceUpdate: null,
    toolCallsSinceUpdate: 0,
    lastTurnHadToolCalls: false,
    notesTokens: 0,
    folded: {},
    usage: null,
    dryRun: false,
  };
}
