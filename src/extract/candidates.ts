/**
 * What the Stop hook's mode leaves unsaved is kept, not lost: a statement the full local detector
 * finds in a message where the hook's mode (explicit requests and standing instructions) finds
 * nothing becomes a candidate in `<memdir>/.memdir/extract/candidates.jsonl`, one JSON line each,
 * until `memdir extract --accept` saves it or `--discard` drops it. The cursor moves past the
 * message; the candidate stays. Written under the extract run lock (appended by a run, rewritten
 * atomically by accept and discard).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DurableStatement } from '../core/durable-statements.js';
import { messages } from '../core/messages.js';
import { poisoningProblem } from '../core/poisoning.js';
import { findSecrets } from '../core/secrets.js';
import type { TranscriptMessage } from '../claude-code/transcript.js';
import { writeStateFile } from '../store/atomic.js';
import { readSessionNotes, sessionNotesFile } from '../store/session-notes.js';
import { openStateFile, statePath } from '../store/state-path.js';
import { findDurableStatement } from './local.js';
import type { RejectedOperation } from './operations.js';

export const CANDIDATES_FILE = path.join('extract', 'candidates.jsonl');

export interface ExtractCandidate {
  /** Short id for `--accept`/`--discard`: a hash of the session, the message and the statement. */
  id: string;
  /** What the detector found: the memory `--accept` writes is made from it as a run would. */
  statement: string;
  why: string | null;
  type: DurableStatement['type'];
  /** The detector family that found it (always an inferred one). */
  kind: DurableStatement['kind'];
  basis: 'inferred';
  /** Why the run did not save it. */
  reason: string;
  sessionId: string | null;
  messageUuid: string;
  /** Position of the message among the transcript's messages. */
  messageIndex: number;
  /** When the message was sent (the anchor of its relative dates), when the transcript says. */
  messageTime: string | null;
  transcript: string;
  recordedAt: string;
  /** The lines of the session's notes (`memdir session`) that cite the message, and the notes file (relative to the directory): what the session was doing when it was said. */
  sessionNotes?: { file: string; lines: string[] };
}

/** Most notes lines a candidate cites. */
const MAX_NOTES_LINES = 3;

/** The lines of a session's notes whose references name `uuid` (whole, or by the 8-character prefix the notes use). */
export function notesLinesCiting(notes: string, uuid: string): string[] {
  const safe = uuid.replace(/[^A-Za-z0-9_-]/g, '_');
  return notes
    .split('\n')
    .filter((line) => line.startsWith('- ') && [...line.matchAll(/\[m:([A-Za-z0-9_-]+)\]/g)].some(([, ref]) => ref === safe || (ref!.length === 8 && safe.startsWith(ref!))))
    .slice(0, MAX_NOTES_LINES);
}

const idOf = (sessionId: string | null, uuid: string, statement: string) =>
  crypto
    .createHash('sha256')
    .update(`${sessionId ?? ''}\0${uuid}\0${statement}`)
    .digest('hex')
    .slice(0, 8);

/**
 * The statements of `fresh` (new human prompts) the hook's mode saved nothing from and the full
 * detector finds: in the message order. A message the hook's mode finds something in is the run's
 * (saved, or rejected with its reason).
 */
export function unsavedStatements(fresh: readonly TranscriptMessage[]): Array<{ found: DurableStatement; message: TranscriptMessage }> {
  const out: Array<{ found: DurableStatement; message: TranscriptMessage }> = [];
  for (const message of fresh) {
    if (!message.isHumanPrompt || findDurableStatement(message.text, { explicitOnly: true })) continue;
    const found = findDurableStatement(message.text);
    if (found) out.push({ found, message });
  }
  return out;
}

function readText(dir: string): string {
  try {
    return fs.readFileSync(statePath(dir, CANDIDATES_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** The candidates waiting for review, oldest first (a line that does not parse is skipped). */
export function readCandidates(dir: string): ExtractCandidate[] {
  return parse(readText(dir));
}

function parse(text: string): ExtractCandidate[] {
  const out: ExtractCandidate[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const candidate = JSON.parse(line) as ExtractCandidate;
      if (typeof candidate.id === 'string' && typeof candidate.statement === 'string') out.push(candidate);
    } catch {
      // a line cut by a crash mid-append: the others stay readable
    }
  }
  return out;
}

/**
 * Append the run's unsaved statements as candidates (one already waiting is not added twice). A
 * statement holding a secret is never written: it comes back as a rejection naming the rule only.
 * The caller holds the extract run lock.
 */
export function recordCandidates(
  dir: string,
  found: ReturnType<typeof unsavedStatements>,
  context: { sessionId: string | null; transcript: string; all: readonly TranscriptMessage[] },
): { recorded: ExtractCandidate[]; rejected: RejectedOperation[] } {
  const recorded: ExtractCandidate[] = [];
  const rejected: RejectedOperation[] = [];
  if (found.length === 0) return { recorded, rejected };
  const text = readText(dir);
  const waiting = new Set(parse(text).map((c) => c.id));
  const now = new Date().toISOString();
  const notes = context.sessionId ? readSessionNotes(dir, context.sessionId) : '';
  for (const { found: statement, message } of found) {
    const secret = findSecrets(`${statement.statement}\n${statement.why ?? ''}`)[0];
    if (secret) {
      rejected.push({ op: 'create', file: '', reason: `holds a secret (${secret.rule.id}); not kept for review`, sources: [message.uuid] });
      continue;
    }
    const poisoned = poisoningProblem(`${statement.statement}\n${statement.why ?? ''}`);
    if (poisoned) {
      rejected.push({ op: 'create', file: '', reason: `${poisoned}; not kept for review`, sources: [message.uuid] });
      continue;
    }
    const id = idOf(context.sessionId, message.uuid, statement.statement);
    if (waiting.has(id)) continue;
    waiting.add(id);
    recorded.push({
      id,
      statement: statement.statement,
      why: statement.why,
      type: statement.type,
      kind: statement.kind,
      basis: 'inferred',
      reason: messages.extractCandidateReason(statement.kind),
      sessionId: context.sessionId,
      messageUuid: message.uuid,
      messageIndex: context.all.indexOf(message),
      messageTime: message.timestamp,
      transcript: context.transcript,
      recordedAt: now,
      ...citedNotes(dir, context.sessionId, notes, message.uuid),
    });
  }
  if (recorded.length === 0) return { recorded, rejected };
  const fd = openStateFile(dir, CANDIDATES_FILE, 'append');
  try {
    // A line cut by a crash mid-append is ended first, so it does not swallow the next one.
    const cut = text !== '' && !text.endsWith('\n');
    fs.writeSync(fd, `${cut ? '\n' : ''}${recorded.map((c) => `${JSON.stringify(c)}\n`).join('')}`);
  } finally {
    fs.closeSync(fd);
  }
  return { recorded, rejected };
}

function citedNotes(dir: string, sessionId: string | null, notes: string, uuid: string): Pick<ExtractCandidate, 'sessionNotes'> {
  const lines = sessionId && notes ? notesLinesCiting(notes, uuid) : [];
  return lines.length > 0 ? { sessionNotes: { file: path.relative(dir, sessionNotesFile(dir, sessionId!)), lines } } : {};
}

/** Take candidate `id` out of the file (rewritten atomically). The caller holds the extract run lock. */
export function removeCandidate(dir: string, id: string): void {
  const rest = readCandidates(dir).filter((c) => c.id !== id);
  writeStateFile(dir, CANDIDATES_FILE, rest.map((c) => `${JSON.stringify(c)}\n`).join(''));
}
