/**
 * `extract`: the new part of a transcript becomes memories, exactly once. One run at a time per
 * memory directory (the run lock); a call that arrives during a run leaves a pending request
 * and returns, and the running process takes it as one trailing run before it lets go.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError, IoError, MemdirError, UsageError } from '../core/errors.js';
import { displayPath } from '../core/paths.js';
import { containment, jaccard, tokenSet } from '../core/similarity.js';
import { poisoningProblem } from '../core/poisoning.js';
import { findSecrets, redactSecrets } from '../core/secrets.js';
import { isMemoryType, type MemoryType } from '../core/taxonomy.js';
import { parseTopicFile } from '../core/topic-file.js';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { readMemoryText } from '../store/files.js';
import { applyMemoryEdits, type EditResult, type MemoryEdit, validateSave } from '../store/memory-store.js';
import { scanMemories, type ScannedMemory } from '../store/scan.js';
import { ModelError } from '../llm/model.js';
import { messages as sentences } from '../core/messages.js';
import { proposeWithClaude } from './claude.js';
import { fileSaying, type InstructionLine, instructionsWrittenAfter, readInstructionLines } from './instructions.js';
import { type ComparedMemory, claimText, comparedMemory, contradictingTerms, lastChanged, replacedBody, restatementScore, saysItChanged, updateLine } from './restate.js';
import { basisOf, type DurableStatement, findDurableStatement, judgeMessage, proposeMemory } from './local.js';
import type { PassedDecision, StatementKind } from '../core/durable-statements.js';
import { type ExtractCandidate, recordCandidates, unsavedStatements } from './candidates.js';
import type { MemoryOperation, OperationBasis, RejectedOperation } from './operations.js';
import { checkReadable, loadTranscript } from '../claude-code/read-transcript.js';
import { readCursor, runCoalesced, writeCursor } from './state.js';
import { messagesAfter, toolUsesWritingInto, type Transcript, type TranscriptMessage } from '../claude-code/transcript.js';
import { fieldDefault } from '../config/sections.js';

export interface ExtractOptions {
  /** Memory directory. */
  dir: string;
  /** Transcript file, or a stream of its bytes (stdin). */
  transcript: string | AsyncIterable<Buffer | string>;
  /** Session whose cursor is used; default: the transcript's own sessionId, else its file name. */
  sessionId?: string | undefined;
  engine?: 'local' | 'claude';
  model?: string | undefined;
  /** Extract only once this many new user turns have gathered (default: the `extract.every` default of the config spec). */
  every?: number;
  dryRun?: boolean;
  /** Local engine: keep only explicit requests to remember, nothing inferred (fewer memories, far fewer wrong ones). */
  explicitOnly?: boolean;
  /** The conversation's project: its CLAUDE.md and other instruction files are not repeated as memories. */
  projectDir?: string | undefined;
  /** Per-run notes (the trailing runs' results, skipped operations). */
  info?: (message: string) => void;
  /** Also report every statement considered as a memory, with what became of it (`considered`): --dry-run and --json. */
  explain?: boolean;
  /** Where a fall back from the claude engine to the local one is said (stderr; the Stop hook's run: extract.log). */
  warn?: (message: string) => void;
}

export type ExtractStatus = 'extracted' | 'no-new-messages' | 'main-agent-wrote' | 'throttled' | 'coalesced';

export interface AppliedOperation {
  op: 'create' | 'update' | 'delete';
  file: string;
  name: string;
  type: MemoryType | null;
  description: string;
  /** Uuids of the transcript messages the memory comes from. */
  sources: string[];
  /** Why it exists: the user asked for it (`request`), the local rules inferred it, or the model proposed it. */
  basis: OperationBasis;
  /** Written, and its pointer past what the agent loads of MEMORY.md: the agent will not see it. */
  notLoaded?: true;
  /** The statement contradicts the memory's claim: replaced (it said the claim changed, and is newer), or added and reported. */
  contradiction?: Contradiction;
}

/** The claude engine's call failed, so the local engine ran instead: why, and what kind of failure. */
export interface EngineFallback {
  from: 'claude';
  /** The model error, as said on stderr. */
  reason: string;
  /** `auth`: the key was refused (fix ANTHROPIC_API_KEY); `unavailable`: error, overload or timeout; `invalid`: an answer that is not the structured output asked for. */
  kind: ModelError['kind'];
}

/**
 * What became of a statement considered as a memory: `saved` (created or added to a memory; with
 * --dry-run, would be), `task-scoped`, `kept-elsewhere` (an instruction file or the code already
 * holds it), `not-asked` (inferred in a run that keeps explicit requests only), `not-durable`
 * (a question, a task, too short…), `duplicate` (an existing memory already says it), `secret`,
 * `refused` (memdir would not write it: an invalid field, a memory it leaves alone).
 */
export type CandidateDecision = 'saved' | PassedDecision | 'duplicate' | 'secret' | 'refused';

/** A statement considered as a memory (docs/commands/extract.md, "Considered"). */
export interface ConsideredStatement {
  /** Uuid of the user message it is in (the claude engine: the first source it named, else ""). */
  message: string;
  statement: string;
  /** The detector's family (`explicit`, `standing`, `confirmation`, `identity`, `reference`, `project`), or `model`. */
  kind: StatementKind | 'model';
  decision: CandidateDecision;
  reason: string;
  /** The memory it was saved to, or the one that already says it. */
  file?: string;
}

export interface ExtractResult {
  status: ExtractStatus;
  /** The engine whose proposals were used: `local` after a fall back (see `fallback`). */
  engine: 'local' | 'claude';
  /** Present when the claude engine failed and the local engine ran instead. */
  fallback?: EngineFallback;
  sessionId: string | null;
  transcript: string;
  cursor: { before: string | null; after: string | null; from: 'start' | 'cursor' | 'compact-boundary' | null };
  lines: { read: number; malformed: number };
  newMessages: number;
  /** Applied, or with --dry-run the ones that would be. */
  operations: AppliedOperation[];
  rejected: RejectedOperation[];
  /** With `explain` (--dry-run, --json): every statement considered as a memory and what became of it, in message order. */
  considered?: ConsideredStatement[];
  /** The main agent's Write/Edit tool uses into the memory directory that made this run skip. */
  mainAgentWrites: string[];
  /** What the hook's mode (explicitOnly) left unsaved, kept in `.memdir/extract/candidates.jsonl` for `extract --review`. */
  candidates: ExtractCandidate[];
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number } | null;
  dryRun: boolean;
}

/**
 * Two statements this similar (token-set Jaccard) are one memory: the later updates the earlier. The
 * same threshold holds between a statement and a memory's texts (restate.ts): on the real memory
 * directories of the fixtures only memories that say the same thing twice reach it
 * (test/unit/extract-restate.test.ts).
 */
const NEAR_DUPLICATE = 0.5;
/** Share of a statement's terms an instruction file's new text must hold for the statement to count as recorded there. */
const RECORDED_SHARE = 0.6;

function sessionOf(options: ExtractOptions, transcript: Transcript, label: string): string | null {
  if (options.sessionId) return options.sessionId;
  const fromLines = transcript.messages.find((m) => m.sessionId)?.sessionId;
  if (fromLines) return fromLines;
  return label === '-' ? null : path.basename(label).replace(/\.jsonl$/, '');
}

/**
 * A local operation; `append`: add `body` to the end of an existing memory instead of replacing it;
 * `replace`: the memory's body (`was`, as read) becomes `body`, its name and description the operation's.
 */
type LocalOperation = MemoryOperation & { append?: boolean; replace?: { was: string }; contradiction?: Contradiction };

/** A statement that contradicts the claim of the memory it restates: whether it replaced it, the claim (`was`), and why. */
export interface Contradiction {
  replaced: boolean;
  was: string;
  reason: string;
}

interface Candidate extends LocalOperation {
  /** Text compared for near-duplicates. */
  statement: string;
  /** The statement and the reason given for it: what an existing memory must already hold to make it redundant. */
  claim: string;
  /** What an existing memory about the same thing gets at its end (dated there): the statement and its reason. */
  addition: string;
  /** The message's day (YYYY-MM-DD) and time (ms). */
  day: string;
  time: number;
}

/** When a message was sent, the anchor of its relative dates: now when the transcript does not say (or says nonsense). */
function messageTime(timestamp: string | null | undefined): Date {
  const time = timestamp ? new Date(timestamp) : new Date();
  return Number.isNaN(time.getTime()) ? new Date() : time;
}

/** The local engine's proposals: one per durable statement in what the human typed. */
function proposeLocally(
  messages: readonly TranscriptMessage[],
  options: Pick<ExtractOptions, 'projectDir' | 'explicitOnly' | 'explain'> & { found?: (index: number) => DurableStatement | null; names?: Iterable<string> },
  considered: Considered,
): { candidates: Candidate[]; rejected: RejectedOperation[] } {
  const { projectDir } = options;
  // Titles of the memories there are and of those proposed so far: a new one is titled apart from them.
  const titles = new Set([...(options.names ?? [])].map((name) => name.toLowerCase()));
  const candidates: Candidate[] = [];
  const rejected: RejectedOperation[] = [];
  let instructions: InstructionLine[] | undefined; // read on the first statement found: most runs find none
  for (const [index, message] of messages.entries()) {
    if (!message.isHumanPrompt) continue;
    // What was passed over is looked for only when it is reported: it costs the rules' time again.
    const { found, passed } = options.found
      ? { found: options.found(index), passed: [] }
      : options.explain
        ? judgeMessage(message.text, { explicitOnly: options.explicitOnly })
        : { found: findDurableStatement(message.text, { explicitOnly: options.explicitOnly }), passed: [] };
    for (const p of passed) considered.add({ message: message.uuid, ...p });
    if (!found) continue;
    const decide = (decision: CandidateDecision, reason: string) =>
      considered.add({ message: message.uuid, statement: decision === 'secret' ? redactSecrets(found.statement) : found.statement, kind: found.kind, decision, reason });
    // "add to CLAUDE.md that…" and the agent did: the statement is loaded in every session already (docs/architecture.md#memory-types).
    const statementTerms = tokenSet(found.statement);
    const recorded = instructionsWrittenAfter(messages, index).find((w) => containment(statementTerms, tokenSet(w.text)) >= RECORDED_SHARE);
    if (recorded) {
      const reason = `already in ${path.basename(recorded.file)}, written there by the agent`;
      rejected.push({ op: 'create', file: '', reason, sources: [message.uuid] });
      decide('kept-elsewhere', reason);
      continue;
    }
    instructions ??= projectDir ? readInstructionLines(projectDir) : [];
    const saying = fileSaying(found.statement, instructions);
    if (saying) {
      const reason = `${projectDir ? displayPath(saying, projectDir) : saying} already says it`;
      rejected.push({ op: 'create', file: '', reason, sources: [message.uuid] });
      decide('kept-elsewhere', reason);
      continue;
    }
    const anchor = messageTime(message.timestamp);
    const memory = proposeMemory(found, anchor, (name) => titles.has(name.toLowerCase()));
    const secret = findSecrets(`${memory.name}\n${memory.body}`)[0];
    if (secret) {
      const reason = `holds a secret (${secret.rule.id})`;
      rejected.push({ op: 'create', file: '', reason, sources: [message.uuid] });
      decide('secret', reason);
      continue;
    }
    const poisoned = poisoningProblem(`${memory.name}\n${memory.description}\n${memory.body}`);
    if (poisoned) {
      rejected.push({ op: 'create', file: '', reason: poisoned, sources: [message.uuid] });
      decide('refused', poisoned);
      continue;
    }
    const [said, ...rest] = memory.body.split('\n');
    const reason = found.why ? rest.find((line) => line.startsWith('**Why:**')) : undefined;
    const addition = `${said}${reason ? ` ${reason}` : ''}`;
    const day = anchor.toISOString().slice(0, 10);
    candidates.push({
      op: 'create',
      file: '',
      ...memory,
      sources: [message.uuid],
      basis: basisOf(found),
      statement: found.statement,
      claim: `${found.statement} ${found.why ?? ''}`,
      addition,
      day,
      time: anchor.getTime(),
    });
    titles.add(memory.name.toLowerCase());
    considered.pending(message.uuid, { message: message.uuid, statement: found.statement, kind: found.kind });
  }
  return { candidates, rejected };
}

/** The model's creates and updates that a line of the project's instruction files already makes (by description or by the rule's first line). */
function saidByInstructions(operations: readonly MemoryOperation[], projectDir: string | undefined): Map<MemoryOperation, string> {
  const said = new Map<MemoryOperation, string>();
  const writes = operations.filter((operation) => operation.op !== 'delete');
  if (writes.length === 0 || !projectDir) return said;
  const lines = readInstructionLines(projectDir);
  for (const operation of writes) {
    const rule = operation.body.split('\n', 1)[0] ?? '';
    const file = [operation.description, rule].map((text) => fileSaying(text, lines)).find(Boolean);
    if (file) said.set(operation, `${displayPath(file, projectDir)} already says it`);
  }
  return said;
}

/** An existing memory as a restated statement is matched against: its fields, its text when memdir can read it, and when it last changed. */
interface KnownMemory {
  memory: ScannedMemory;
  body: string;
  modified: unknown;
  compared: ComparedMemory;
}

/** The memories' bodies, read once a statement needs them (most runs find none). */
function knownMemories(existing: ScannedMemory[], dir: string): KnownMemory[] {
  return existing.map((memory) => {
    const read = rewritableText(dir, memory.path);
    const fields = { name: memory.name, description: memory.description };
    if (read.problem !== undefined) return { memory, body: '', modified: undefined, compared: comparedMemory({ ...fields, body: '' }) };
    const parsed = parseTopicFile(read.text);
    return { memory, body: parsed.file.body, modified: parsed.file.frontmatter?.data.modified, compared: comparedMemory({ ...fields, body: parsed.file.body }) };
  });
}

/** The memory `statement` restates: the nearest one by the near-duplicate measure over its name, description, claim and updates. */
function restatedMemory(statement: string, known: readonly KnownMemory[]): KnownMemory | undefined {
  let best: { known: KnownMemory; score: number } | undefined;
  for (const k of known) {
    const score = restatementScore(statement, k.compared);
    if (score >= NEAR_DUPLICATE && (!best || score > best.score)) best = { known: k, score };
  }
  return best?.known;
}

/**
 * A later statement that repeats an earlier one of the run replaces it. One that restates an
 * existing memory (src/extract/restate.ts: its name, description, claim or an update is a
 * near-duplicate) is added to that memory's end, dated, with its session — or dropped when the
 * memory already holds every one of its words. One that contradicts the memory's claim replaces
 * the claim only when it says the claim changed ("now", "no longer", "instead"…) and is newer than
 * the memory's last change; otherwise it is added and reported as a possible contradiction.
 */
function mergeNearDuplicates(
  candidates: Candidate[],
  existing: ScannedMemory[],
  dir: string,
  considered: Considered,
  sessionId: string | null,
): { operations: LocalOperation[]; rejected: RejectedOperation[] } {
  const merged: Candidate[] = [];
  const rejected: RejectedOperation[] = [];
  let known: KnownMemory[] | undefined;
  for (const candidate of candidates) {
    const tokens = tokenSet(candidate.statement);
    const twin = merged.findIndex((other) => jaccard(tokenSet(other.statement), tokens) >= NEAR_DUPLICATE);
    if (twin !== -1) {
      const earlier = merged[twin]!;
      const sources = [...earlier.sources, ...candidate.sources];
      // A claim this run replaced stays replaced: its twin said the same again.
      if (earlier.replace) merged[twin] = { ...earlier, sources };
      else merged[twin] = earlier.append ? { ...earlier, statement: candidate.statement, body: updateLine(candidate.day, sessionId, candidate.addition), sources } : { ...candidate, sources };
      continue;
    }
    known ??= knownMemories(existing, dir);
    const match = restatedMemory(candidate.statement, known);
    if (!match) {
      merged.push(candidate);
      continue;
    }
    const file = match.memory.path;
    const current = rewritableText(dir, file);
    if (current.problem !== undefined) {
      rejected.push({ op: 'update', file, reason: current.problem, sources: candidate.sources });
      for (const source of candidate.sources) considered.settle(source, 'refused', current.problem, file);
      continue;
    }
    const memory = { name: match.memory.name, description: match.memory.description, body: match.body };
    const type = isMemoryType(match.memory.type) ? match.memory.type : candidate.type;
    const was = claimText(memory);
    // The statement as a dated line at the memory's end, its name and description kept.
    const addedTo: Candidate = {
      ...candidate,
      op: 'update',
      file,
      type,
      name: match.memory.name ?? candidate.name,
      description: match.memory.description ?? candidate.description,
      body: updateLine(candidate.day, sessionId, candidate.addition),
      append: true,
    };
    const contradicting = contradictingTerms(was, candidate.statement);
    if (contradicting.length > 0) {
      const marker = saysItChanged(candidate.statement);
      const changed = lastChanged({ body: match.body, modified: match.modified, mtimeMs: match.memory.mtimeMs });
      if (marker && candidate.time > changed) {
        const body = replacedBody(match.body, candidate.body, (quoted) => updateLine(candidate.day, sessionId, `the user changed this; before, it said: "${quoted}"`));
        merged.push({
          ...candidate,
          op: 'update',
          file,
          type,
          body,
          replace: { was: match.body },
          contradiction: { replaced: true, was, reason: `the statement says it changed ("${marker}") and is newer than the memory` },
        });
        continue;
      }
      const why = marker
        ? `the memory changed after this statement was made (${new Date(changed).toISOString().slice(0, 10)})`
        : 'the statement does not say the rule changed ("now", "no longer", "instead"…)';
      merged.push({ ...addedTo, contradiction: { replaced: false, was, reason: why } });
      continue;
    }
    if (containment(tokenSet(candidate.claim), tokenSet(current.text)) === 1) {
      const reason = `${file} already says it`;
      rejected.push({ op: 'update', file, reason, sources: candidate.sources });
      for (const source of candidate.sources) considered.settle(source, 'duplicate', reason, file);
      continue;
    }
    merged.push(addedTo);
  }
  return { operations: merged.map(({ statement: _statement, claim: _claim, addition: _addition, day: _day, time: _time, ...operation }) => operation), rejected };
}

/**
 * The text of the memory `file` that an update would add to, or why it is left as it is: one memdir
 * does not rewrite (UTF-16, undecodable, too large) or one gone since the scan. Such an update is
 * reported, never a reason to fail the run (the Stop hook would fail on every turn after).
 */
function rewritableText(dir: string, file: string): { text: string; problem?: undefined } | { text?: undefined; problem: string } {
  try {
    const text = readMemoryText(path.join(dir, file), { maxBytes: MAX_TOPIC_FILE_BYTES });
    return text === undefined ? { problem: `${file} is gone` } : { text };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { problem: `${file} is about the same, and memdir leaves it as it is (${error.problem})` };
  }
}

/** The model's update as what is written: its body added, dated, at the end of the memory, whose name and description stay. */
function modelAddition(operation: MemoryOperation, existing: ScannedMemory[], day: string, sessionId: string | null): LocalOperation {
  const memory = existing.find((m) => m.path === operation.file);
  return {
    ...operation,
    op: 'update',
    name: memory?.name ?? operation.name,
    description: memory?.description ?? operation.description,
    type: isMemoryType(memory?.type) ? memory.type : operation.type,
    body: updateLine(day, sessionId, operation.body.trim()),
    append: true,
  };
}

/**
 * The model's creates that restate an existing memory, matched as the local engine's statements are
 * (by the rule's first line, else the description): each becomes an update of that memory, or is
 * dropped when the memory already holds every word of it. The model proposes updates itself; these
 * are the ones it missed.
 */
function restatedByModel(operations: readonly MemoryOperation[], existing: ScannedMemory[], dir: string): Map<MemoryOperation, { file: string; saysIt: boolean }> {
  const restated = new Map<MemoryOperation, { file: string; saysIt: boolean }>();
  const creates = operations.filter((operation) => operation.op === 'create');
  if (creates.length === 0) return restated;
  const known = knownMemories(existing, dir);
  for (const operation of creates) {
    const statement = claimText({ description: operation.description, body: operation.body });
    const match = restatedMemory(statement, known);
    const text = match && rewritableText(dir, match.memory.path).text;
    if (match && text !== undefined) restated.set(operation, { file: match.memory.path, saysIt: containment(tokenSet(statement), tokenSet(text)) === 1 });
  }
  return restated;
}

function toEdit(operation: LocalOperation, sessionId: string | null): MemoryEdit {
  if (operation.op === 'delete') return { op: 'remove', memory: operation.file };
  const extraFields: Record<string, string> = {};
  if (sessionId) extraFields.originSessionId = sessionId;
  if (operation.sources.length > 0) extraFields.originMessageUuid = operation.sources.join(' ');
  return {
    op: 'upsert',
    type: operation.type,
    name: operation.name,
    description: operation.description,
    body: operation.body,
    ...(operation.file ? { file: operation.file } : {}),
    extraFields,
    ...(operation.append ? { append: true } : {}),
    ...(operation.replace ? { replaceBody: operation.replace } : {}),
    // A statement no memory restates is a memory of its own, even under a name one already has.
    ...(operation.op === 'create' ? { newFile: true } : {}),
  };
}

const rejectionOf = (operation: LocalOperation, reason: string): RejectedOperation => ({ op: operation.op, file: operation.file, reason, sources: operation.sources });

/** The operations whose fields can be saved, and the others with the reason (named after the field, not a flag). */
function invalidOperations(operations: LocalOperation[]): { valid: LocalOperation[]; rejected: RejectedOperation[] } {
  const valid: LocalOperation[] = [];
  const rejected: RejectedOperation[] = [];
  for (const operation of operations) {
    const edit = toEdit(operation, null);
    try {
      if (edit.op === 'upsert') validateSave(edit, 'fields');
      valid.push(operation);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      rejected.push(rejectionOf(operation, error.message));
    }
  }
  return { valid, rejected };
}

/**
 * Write the operations in one transaction; when one of them is refused (a memory file memdir
 * cannot rewrite, a secret bound for team memory), each alone, so that one bad candidate skips
 * itself, never the run. A failure to write (I/O) stops the run: the cursor stays for a retry.
 */
async function writeOperations(
  dir: string,
  operations: LocalOperation[],
  sessionId: string | null,
): Promise<{ applied: Array<{ operation: LocalOperation; edit: EditResult }>; rejected: RejectedOperation[] }> {
  const refused = (error: unknown) => error instanceof MemdirError && !(error instanceof IoError);
  try {
    const edits = await applyMemoryEdits(
      dir,
      operations.map((operation) => toEdit(operation, sessionId)),
    );
    return { applied: operations.map((operation, i) => ({ operation, edit: edits[i]! })), rejected: [] };
  } catch (error) {
    if (!refused(error)) throw error;
  }
  const applied: Array<{ operation: LocalOperation; edit: EditResult }> = [];
  const rejected: RejectedOperation[] = [];
  for (const operation of operations) {
    try {
      const [edit] = await applyMemoryEdits(dir, [toEdit(operation, sessionId)]);
      applied.push({ operation, edit: edit! });
    } catch (error) {
      if (!refused(error)) throw error;
      rejected.push(rejectionOf(operation, (error as Error).message));
    }
  }
  return { applied, rejected };
}

/** What an engine proposes to write, and what it turned down with why. */
interface Proposal {
  operations: LocalOperation[];
  rejected: RejectedOperation[];
  usage: ExtractResult['usage'];
}

/**
 * The claude engine's operations, less those the project's instruction files already say and updates
 * of memories memdir leaves alone. The model saw descriptions, not the memories' text (which may be
 * hand-written): an update adds, never replaces.
 */
async function proposeByModel(messages: readonly TranscriptMessage[], existing: ScannedMemory[], options: ExtractOptions, sessionId: string | null): Promise<Proposal> {
  const anchor = messageTime(messages.findLast((m) => m.timestamp)?.timestamp);
  const proposal = await proposeWithClaude(messages, existing, anchor, { model: options.model });
  const instructed = saidByInstructions(proposal.valid, options.projectDir);
  const day = anchor.toISOString().slice(0, 10);
  const leftAlone = new Map<MemoryOperation, string>();
  for (const operation of proposal.valid) {
    const problem = operation.op === 'update' && !instructed.has(operation) ? rewritableText(options.dir, operation.file).problem : undefined;
    if (problem !== undefined) leftAlone.set(operation, problem);
  }
  const refused = new Map([...instructed, ...leftAlone]);
  const kept = proposal.valid.filter((operation) => !refused.has(operation));
  const restated = restatedByModel(kept, existing, options.dir);
  // Two operations on one file would be refused together: a restating create joins the file only once.
  const files = new Set(kept.filter((o) => o.op !== 'create').map((o) => o.file));
  const operations: LocalOperation[] = [];
  const duplicates: RejectedOperation[] = [];
  for (const operation of kept) {
    const memory = restated.get(operation);
    const refuse = (reason: string) => duplicates.push({ op: 'update', file: memory!.file, reason, sources: operation.sources });
    if (!memory) operations.push(operation.op === 'update' ? modelAddition(operation, existing, day, sessionId) : operation);
    else if (memory.saysIt) refuse(`${memory.file} already says it`);
    else if (files.has(memory.file)) refuse(`${memory.file} is already updated by this run`);
    else {
      files.add(memory.file);
      operations.push(modelAddition({ ...operation, op: 'update', file: memory.file }, existing, day, sessionId));
    }
  }
  return {
    operations,
    rejected: [...proposal.rejected, ...[...refused].map(([operation, reason]) => ({ op: operation.op, file: operation.file, reason, sources: operation.sources })), ...duplicates],
    usage: proposal.usage,
  };
}

/** The local engine's statements, near-duplicates merged with each other and into existing memories. */
function proposeByRules(messages: readonly TranscriptMessage[], existing: ScannedMemory[], options: ExtractOptions, considered: Considered, sessionId: string | null): Proposal {
  const local = proposeLocally(messages, { ...options, names: existing.flatMap((m) => (m.name ? [m.name] : [])) }, considered);
  const merged = mergeNearDuplicates(local.candidates, existing, options.dir, considered, sessionId);
  return { operations: merged.operations, rejected: [...local.rejected, ...merged.rejected], usage: null };
}

/**
 * The claude engine's proposal; when its call fails (an error, a timeout, an answer without the
 * structured output), the local engine's instead, so that what the user asked to keep is not lost
 * with the model. A refused key falls back too (the Stop hook runs unattended), said as such.
 */
async function proposeFailingSafe(messages: readonly TranscriptMessage[], existing: ScannedMemory[], options: ExtractOptions, result: ExtractResult, considered: Considered): Promise<Proposal> {
  try {
    return await proposeByModel(messages, existing, options, result.sessionId);
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    const reason = error.kind === 'auth' ? sentences.modelKeyRefused(error.message) : error.message;
    options.warn?.(sentences.engineFellBack('extract', reason));
    result.engine = 'local';
    result.fallback = { from: 'claude', reason, kind: error.kind };
    return proposeByRules(messages, existing, options, considered, result.sessionId);
  }
}

/** What a saved statement became: a new memory, an addition, or a claim replaced. */
function savedReason(operation: AppliedOperation): string {
  if (operation.op === 'create') return 'a new memory';
  const c = operation.contradiction;
  if (c?.replaced) return `replaced the claim of ${operation.file}: ${c.reason}`;
  if (c) return `added to ${operation.file}; it may contradict "${c.was}" (not replaced: ${c.reason})`;
  return `added to ${operation.file}`;
}

/**
 * The statements considered in a run, in the order of their messages. A statement the rules kept is
 * pending until the run knows what became of it: merged into a duplicate, refused, or written.
 */
class Considered {
  private readonly entries: ConsideredStatement[] = [];
  private readonly open = new Map<string, ConsideredStatement>();

  add(entry: ConsideredStatement): void {
    this.entries.push(entry);
  }

  pending(message: string, entry: Omit<ConsideredStatement, 'decision' | 'reason'>): void {
    const open: ConsideredStatement = { ...entry, decision: 'saved', reason: '' };
    this.entries.push(open);
    this.open.set(message, open);
  }

  settle(message: string, decision: CandidateDecision, reason: string, file?: string): void {
    const entry = this.open.get(message);
    if (!entry) return;
    Object.assign(entry, { decision, reason }, file ? { file } : {});
    this.open.delete(message);
  }

  /** The pending statements settled by what was written (or with --dry-run, would be) and what was refused; all in message order. */
  settleWritten(messages: readonly TranscriptMessage[], operations: readonly AppliedOperation[], refused: readonly RejectedOperation[]): ConsideredStatement[] {
    for (const message of [...this.open.keys()]) {
      const operation = operations.find((o) => o.sources.includes(message));
      const rejection = refused.find((r) => r.sources.includes(message));
      if (operation) this.settle(message, 'saved', savedReason(operation), operation.file || undefined);
      else this.settle(message, 'refused', rejection?.reason ?? 'not written', rejection?.file || undefined);
    }
    const order = new Map(messages.map((m, i) => [m.uuid, i]));
    return this.entries
      .map((entry, i) => ({ entry, i }))
      .sort((a, b) => (order.get(a.entry.message) ?? 0) - (order.get(b.entry.message) ?? 0) || a.i - b.i)
      .map(({ entry }) => entry);
  }
}

/** The model's reasons for a refusal, sorted into the decisions the local engine reports. */
function modelDecision(reason: string): CandidateDecision {
  if (reason.startsWith('holds a secret')) return 'secret';
  if (reason.endsWith('already says it') || reason.startsWith('holds what the code or git history already says')) return 'kept-elsewhere';
  return 'refused';
}

/** The claude engine considers what it proposes: each operation, written or rejected with why. */
function consideredByModel(result: ExtractResult): ConsideredStatement[] {
  const written = result.operations.map(
    (o): ConsideredStatement => ({
      message: o.sources[0] ?? '',
      statement: o.description,
      kind: 'model',
      decision: 'saved',
      reason: `${o.op} ${o.file || 'a new memory'}`,
      ...(o.file ? { file: o.file } : {}),
    }),
  );
  const refused = result.rejected.map(
    (r): ConsideredStatement => ({
      message: r.sources[0] ?? '',
      statement: `${r.op} ${r.file}`.trim(),
      kind: 'model',
      decision: modelDecision(r.reason),
      reason: r.reason,
      ...(r.file ? { file: r.file } : {}),
    }),
  );
  return [...written, ...refused];
}

/** Save the valid operations (unless a dry run) and report each as applied; the invalid and refused ones go to `rejected`. */
async function saveOperations(dir: string, proposed: LocalOperation[], sessionId: string | null, dryRun: boolean): Promise<{ operations: AppliedOperation[]; rejected: RejectedOperation[] }> {
  const invalid = invalidOperations(proposed);
  const rejected = [...invalid.rejected];
  let operations = invalid.valid;
  const notLoaded = new Set<string>();
  if (!dryRun && operations.length > 0) {
    const written = await writeOperations(dir, operations, sessionId);
    rejected.push(...written.rejected);
    operations = written.applied.map(({ operation, edit }) => ({ ...operation, file: edit.file }));
    written.applied.forEach(({ edit }, i) => {
      if (edit.op === 'upsert' && !edit.loaded) notLoaded.add(operations[i]!.file);
    });
  }
  const applied = operations.map((o) => ({
    op: o.op,
    file: o.file,
    name: o.name,
    type: o.op === 'delete' ? null : o.type,
    description: o.description,
    sources: o.sources,
    basis: o.basis,
    ...(notLoaded.has(o.file) ? { notLoaded: true as const } : {}),
    ...(o.contradiction ? { contradiction: o.contradiction } : {}),
  }));
  return { operations: applied, rejected };
}

/** One pass over one transcript: read, find what is new since the cursor, propose, write, move the cursor. */
async function extractOnce(options: ExtractOptions): Promise<ExtractResult> {
  const engine = options.engine ?? 'local';
  const dryRun = options.dryRun ?? false;
  const { transcript, bytes, label } = await loadTranscript(options.transcript);
  checkReadable(label, transcript);
  const sessionId = sessionOf(options, transcript, label);
  const before = sessionId ? (readCursor(options.dir, sessionId)?.cursor ?? null) : null;
  const after = messagesAfter(transcript, before);
  const last = transcript.messages.at(-1)?.uuid || before;
  const result: ExtractResult = {
    status: 'extracted',
    engine,
    sessionId,
    transcript: label,
    cursor: { before, after: before, from: after.messages.length ? after.from : null },
    lines: { read: transcript.counts.lines, malformed: transcript.counts.malformed },
    newMessages: after.messages.length,
    operations: [],
    rejected: [],
    ...(options.explain ? { considered: [] } : {}),
    mainAgentWrites: [],
    candidates: [],
    usage: null,
    dryRun,
  };
  const moveCursor = () => {
    result.cursor.after = last ?? null;
    if (!dryRun && sessionId) writeCursor(options.dir, sessionId, last ?? null, bytes);
  };

  if (after.messages.length === 0) {
    result.status = 'no-new-messages';
    return result;
  }
  const writes = toolUsesWritingInto(after.messages, options.dir);
  if (writes.length > 0) {
    // The main agent already saved what it meant to: extracting as well would write twins.
    result.status = 'main-agent-wrote';
    result.mainAgentWrites = writes.map((use) => String(use.input.file_path ?? use.input.notebook_path));
    moveCursor();
    return result;
  }
  const every = options.every ?? fieldDefault('extract', 'every');
  if (every > 1 && after.messages.filter((m) => m.isHumanPrompt).length < every) {
    result.status = 'throttled';
    return result;
  }

  // Only this scope's memories: a private run never merges into team memory (team/), nor the reverse.
  const existing = fs.existsSync(options.dir) ? scanMemories(options.dir, { limit: 0, withoutTeam: true }).memories : [];
  const considered = new Considered();
  const proposal = engine === 'claude' ? await proposeFailingSafe(after.messages, existing, options, result, considered) : proposeByRules(after.messages, existing, options, considered, sessionId);
  const saved = await saveOperations(options.dir, proposal.operations, sessionId, dryRun);
  result.operations = saved.operations;
  result.rejected = [...proposal.rejected, ...saved.rejected];
  if (options.explain) result.considered = result.engine === 'claude' ? consideredByModel(result) : considered.settleWritten(after.messages, result.operations, saved.rejected);
  result.usage = proposal.usage;
  // Before the cursor moves past them: what the hook's mode did not save stays for review.
  if (result.engine === 'local' && options.explicitOnly && !dryRun) {
    const kept = recordCandidates(options.dir, unsavedStatements(after.messages), { sessionId, transcript: label, all: transcript.messages });
    result.candidates = kept.recorded;
    result.rejected.push(...kept.rejected);
  }
  moveCursor();
  return result;
}

function coalesced(options: ExtractOptions): ExtractResult {
  return {
    status: 'coalesced',
    engine: options.engine ?? 'local',
    sessionId: options.sessionId ?? null,
    transcript: typeof options.transcript === 'string' ? options.transcript : '-',
    cursor: { before: null, after: null, from: null },
    lines: { read: 0, malformed: 0 },
    newMessages: 0,
    operations: [],
    rejected: [],
    mainAgentWrites: [],
    candidates: [],
    usage: null,
    dryRun: false,
  };
}

/**
 * Turn the new part of a transcript into memories. With `dryRun`, nothing is written and no lock
 * is taken. Otherwise one run at a time per directory: a file whose run finds another in
 * progress is left as a pending request (latest wins) that the running process takes next; a
 * stream (stdin) cannot be handed over, so it waits its turn.
 */
export async function extract(options: ExtractOptions): Promise<ExtractResult> {
  if (options.dryRun) return extractOnce(options);
  fs.mkdirSync(options.dir, { recursive: true });
  const request = typeof options.transcript === 'string' ? { transcript: path.resolve(options.transcript), sessionId: options.sessionId ?? null } : undefined;
  const ran = await runCoalesced(options.dir, request, () => extractOnce(options), {
    run: (pending) => extractOnce({ ...options, transcript: pending.transcript, sessionId: pending.sessionId ?? undefined }),
    done: (pending, trailing) => options.info?.(`memdir extract: trailing run over ${pending.transcript}: ${trailing.status}, ${trailing.operations.length} operation(s)`),
    failed: (pending, error) => options.info?.(`memdir extract: trailing run over ${pending.transcript} failed: ${error.message}`),
  });
  return ran ? ran.value : coalesced(options);
}

/**
 * Statements found earlier (candidates accepted from review) saved as a run would have saved them:
 * the same memory text, instruction-file check, secret check, near-duplicate merge and write.
 */
export async function saveStatements(
  options: Pick<ExtractOptions, 'dir' | 'projectDir'> & { sessionId: string | null },
  statements: Array<{ found: DurableStatement; uuid: string; timestamp: string | null }>,
): Promise<{ operations: AppliedOperation[]; rejected: RejectedOperation[] }> {
  const asMessages: TranscriptMessage[] = statements.map((s) => ({
    uuid: s.uuid,
    parentUuid: null,
    role: 'user',
    timestamp: s.timestamp,
    sessionId: options.sessionId,
    text: s.found.statement,
    toolUses: [],
    isHumanPrompt: true,
  }));
  fs.mkdirSync(options.dir, { recursive: true });
  const existing = scanMemories(options.dir, { limit: 0, withoutTeam: true }).memories;
  const considered = new Considered(); // what review decides is not reported
  const local = proposeLocally(asMessages, { projectDir: options.projectDir, found: (index) => statements[index]!.found }, considered);
  const merged = mergeNearDuplicates(local.candidates, existing, options.dir, considered, options.sessionId);
  const saved = await saveOperations(options.dir, merged.operations, options.sessionId, false);
  return { operations: saved.operations, rejected: [...local.rejected, ...merged.rejected, ...saved.rejected] };
}
