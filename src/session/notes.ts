/**
 * Session notes: the template, the local engine and the budget. Pure over a parsed transcript (no
 * I/O). Every item names the transcript messages it comes from (`[m:…]`, a uuid prefix long enough
 * to be unique in the transcript), so a reader can check each line against the conversation.
 */
import { withoutControlCharacters } from '../core/plain-text.js';
import { redactSecrets } from '../core/secrets.js';
import { estimateTokens } from '../core/tokens.js';
import type { ToolUse, Transcript, TranscriptMessage } from '../claude-code/transcript.js';

/** The sections, in the order of Claude Code's session-memory template. */
export const SECTIONS = [
  { id: 'currentState', heading: 'Current state', about: 'What is being worked on right now, and what comes next.' },
  { id: 'task', heading: 'Task', about: 'What the user asked for: the latest request and its follow-ups, in their words.' },
  { id: 'files', heading: 'Files and functions', about: "Files read and edited, from the tools' own records." },
  { id: 'workflow', heading: 'Workflow', about: 'Commands run, with their exit status.' },
  { id: 'errors', heading: 'Errors and corrections', about: "Errors seen and what fixed them; the user's corrections." },
  { id: 'codebase', heading: 'Codebase notes', about: 'What the session established about the code and the system.' },
  { id: 'learnings', heading: 'Learnings', about: 'What worked, what did not, what to avoid.' },
  { id: 'results', heading: 'Key results', about: 'Answers and outputs the user asked for.' },
  { id: 'worklog', heading: 'Worklog', about: 'One line per turn, oldest first.' },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];
export const SECTION_IDS: readonly SectionId[] = SECTIONS.map((s) => s.id);

export interface NoteItem {
  text: string;
  /** Uuids of the messages the item comes from (at least one). */
  refs: string[];
}

export type Notes = Record<SectionId, NoteItem[]>;

export const emptyNotes = (): Notes => Object.fromEntries(SECTION_IDS.map((id) => [id, []])) as unknown as Notes;

/** A reference in the notes: `[m:` + a uuid prefix + `]`. */
export const REF = /\[m:([A-Za-z0-9_-]+)\]/g;

const MAX_QUOTE = 300;
const MAX_REQUEST = 600;
const MAX_COMMAND = 120;
const MAX_ERROR = 140;
const MAX_FOLLOW_UPS = 5;
const MAX_CORRECTIONS = 10;

/** Characters past the cap still read for secrets, so a secret the cap would cut in half is redacted whole first. */
const SECRET_MARGIN = 400;

/** One line of text, its secrets redacted: control characters and line breaks become spaces, runs of space one, capped. */
export function oneLine(text: string, max: number): string {
  const flat = redactSecrets(withoutControlCharacters(text.slice(0, max + SECRET_MARGIN).replace(/\s+/g, ' ')).trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const quote = (text: string, max = MAX_QUOTE) => `"${oneLine(text, max)}"`;
const code = (text: string, max = MAX_COMMAND) => `\`${oneLine(text, max).replace(/`/g, "'")}\``;

/** The file a tool use names (Read, Write, Edit, MultiEdit, NotebookEdit), if any. */
function fileOf(use: ToolUse): string | undefined {
  const file = use.input.file_path ?? use.input.notebook_path;
  return typeof file === 'string' && file !== '' ? file : undefined;
}

const READ_TOOLS = new Set(['Read', 'NotebookRead']);
const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** What a tool use acts on, to tell a retry of the same thing: the command, the file, else the tool and its first string input. */
function targetOf(use: ToolUse): string {
  if (use.name === 'Bash' && typeof use.input.command === 'string') return `Bash ${oneLine(use.input.command, 500)}`;
  const file = fileOf(use);
  if (file) return `${EDIT_TOOLS.has(use.name) ? 'edit' : use.name} ${file}`;
  const first = Object.values(use.input).find((v) => typeof v === 'string');
  return `${use.name} ${typeof first === 'string' ? oneLine(first, 200) : ''}`;
}

function describeUse(use: ToolUse): string {
  if (use.name === 'Bash' && typeof use.input.command === 'string') return `Bash ${code(use.input.command)}`;
  const file = fileOf(use);
  if (file) return `${use.name} ${file}`;
  return use.name;
}

/** The status Claude Code's Bash tool records: 0 for a result that is not an error, the code of "Exit code N", else "failed". */
function exitStatus(isError: boolean, text: string): string {
  if (!isError) return 'exit 0';
  const code = /^\s*Exit code (\d+)/.exec(text);
  return code ? `exit ${code[1]}` : 'failed';
}

/** An error result's first line, without Claude Code's `<tool_use_error>` wrapper. */
function errorLine(text: string): string {
  const first = text.replace(/<\/?tool_use_error>/g, '').trim();
  return oneLine(first.split('\n').find((line) => line.trim() !== '' && !/^Exit code \d+$/.test(line.trim())) ?? first.split('\n')[0] ?? '', MAX_ERROR);
}

/**
 * The user telling the agent it went wrong, in so many words: a prompt that opens with "no,",
 * "wrong", "that's not…", "undo…", "I said…", "you forgot…", or says "not what I asked", "I told you".
 * Instructions that merely open with "don't" or "actually" are not counted: they may be new requests.
 */
const CORRECTION =
  /^(?:no\b[\s,.!]|nope\b|wrong\b|that'?s (?:not|wrong)|that is (?:not|wrong)|not (?:that|what I)\b|stop\b|undo\b|revert (?:that|this|it)\b|I said\b|I meant\b|you (?:forgot|missed|broke|didn'?t)\b)|\b(?:not what I (?:asked|meant|wanted)|I told you|I already said|I asked you (?:to|not)|that'?s not (?:right|correct|what I))\b/i;

/** A request worth naming as the task: a prompt of some length ("yes", "go on" are follow-ups of the one before). */
const REQUEST_WORDS = 8;

/** A message that opens a turn: a prompt the human typed, or a slash command they ran. */
const opensTurn = (m: TranscriptMessage) => m.isHumanPrompt || m.command !== undefined;
/** What the human said or ran. */
const said = (m: TranscriptMessage) => (m.isHumanPrompt ? m.text : (m.command ?? ''));

interface Turn {
  prompt: TranscriptMessage | undefined;
  messages: TranscriptMessage[];
}

function turnsOf(messages: readonly TranscriptMessage[]): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | undefined;
  for (const message of messages) {
    if (opensTurn(message) || !current) {
      current = { prompt: opensTurn(message) ? message : undefined, messages: [] };
      turns.push(current);
    }
    current.messages.push(message);
  }
  return turns;
}

interface UseRecord {
  use: ToolUse;
  message: TranscriptMessage;
  /** The message holding its result, and the result; absent while it has none. */
  resultMessage?: TranscriptMessage;
  isError?: boolean;
  text?: string;
}

/** Every tool use of the conversation in order, each with its result when the transcript has it. */
function toolRecords(messages: readonly TranscriptMessage[]): UseRecord[] {
  const records: UseRecord[] = [];
  const byId = new Map<string, UseRecord>();
  for (const message of messages) {
    for (const use of message.toolUses) {
      const record: UseRecord = { use, message };
      records.push(record);
      if (use.id) byId.set(use.id, record);
    }
    for (const result of message.toolResults ?? []) {
      const record = byId.get(result.toolUseId);
      if (!record || record.resultMessage) continue;
      record.resultMessage = message;
      record.isError = result.isError;
      record.text = result.text;
    }
  }
  return records;
}

const timeOf = (message: TranscriptMessage | undefined) =>
  message?.timestamp && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(message.timestamp) ? `${message.timestamp.slice(0, 10)} ${message.timestamp.slice(11, 16)}` : '';

function countBy(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${name} ${n}`).join(', ');
}

/**
 * The local engine: only what the transcript states for certain. The task is the latest prompt of
 * some length with the prompts after it; files and commands come from the tool uses and their
 * results; an error is "fixed" when the same command or file later succeeds; corrections are the
 * user's own words.
 */
export function localNotes(transcript: Transcript): Notes {
  const notes = emptyNotes();
  const messages = transcript.messages.filter((m) => m.uuid !== '');
  const turns = turnsOf(messages);
  const records = toolRecords(messages);
  const prompts = messages.filter(opensTurn);

  // Task: the latest request and what the user said after it.
  const requestAt = prompts.findLastIndex((p) => said(p).split(/\s+/).filter(Boolean).length >= REQUEST_WORDS);
  const request = requestAt >= 0 ? prompts[requestAt] : prompts.at(-1);
  if (request) {
    notes.task.push({ text: `Request: ${quote(said(request), MAX_REQUEST)}`, refs: [request.uuid] });
    const after = prompts.slice(prompts.indexOf(request) + 1);
    for (const p of after.slice(-MAX_FOLLOW_UPS)) notes.task.push({ text: `Follow-up: ${quote(said(p))}`, refs: [p.uuid] });
    if (after.length > MAX_FOLLOW_UPS) notes.task.splice(1, 0, { text: `${after.length - MAX_FOLLOW_UPS} earlier follow-ups not shown`, refs: [after[0]!.uuid] });
  }

  // Current state and key results: where the last turn ended.
  const last = turns.at(-1);
  if (last) {
    const lastMessage = last.messages.at(-1)!;
    const uses = last.messages.flatMap((m) => m.toolUses);
    if (opensTurn(lastMessage)) notes.currentState.push({ text: `Waiting for a reply to: ${quote(said(lastMessage))}`, refs: [lastMessage.uuid] });
    else {
      const what = uses.length === 0 ? 'no tool calls' : `${uses.length} tool call${uses.length === 1 ? '' : 's'} (${countBy(uses.map((u) => u.name))})`;
      notes.currentState.push({ text: `Last turn: ${what}`, refs: [last.messages[0]!.uuid, lastMessage.uuid] });
      const inLast = new Set(last.messages);
      const pending = records.filter((r) => inLast.has(r.message) && !r.resultMessage);
      for (const r of pending.slice(-3)) notes.currentState.push({ text: `No result recorded yet for ${describeUse(r.use)}`, refs: [r.message.uuid] });
      const edited = [
        ...new Set(
          records
            .filter((r) => inLast.has(r.message) && EDIT_TOOLS.has(r.use.name) && r.resultMessage && !r.isError)
            .map((r) => fileOf(r.use))
            .filter((f): f is string => !!f),
        ),
      ];
      if (edited.length > 0)
        notes.currentState.push({ text: `Edited in the last turn: ${edited.slice(0, 8).join(', ')}${edited.length > 8 ? ` and ${edited.length - 8} more` : ''}`, refs: [lastMessage.uuid] });
    }
  }
  const reply = messages.findLast((m) => m.role === 'assistant' && m.text.trim() !== '');
  if (reply) notes.results.push({ text: `Last reply: ${quote(reply.text, MAX_REQUEST)}`, refs: [reply.uuid] });

  // Files: read and edited, by the latest record.
  const files = new Map<string, { reads: number; edits: number; ref: string }>();
  for (const r of records) {
    const file = fileOf(r.use);
    if (!file || !r.resultMessage || r.isError || !(READ_TOOLS.has(r.use.name) || EDIT_TOOLS.has(r.use.name))) continue;
    const entry = files.get(file) ?? { reads: 0, edits: 0, ref: '' };
    if (EDIT_TOOLS.has(r.use.name)) entry.edits++;
    else entry.reads++;
    entry.ref = r.resultMessage.uuid;
    files.delete(file); // re-inserted: the map keeps the order of the latest record
    files.set(file, entry);
  }
  for (const [file, { reads, edits, ref }] of files) {
    const how = [edits ? `edited ${edits}×` : '', reads ? `read ${reads}×` : ''].filter(Boolean).join(', ');
    notes.files.push({ text: `${file} (${how})`, refs: [ref] });
  }

  // Workflow: each command by its latest run.
  const commands = new Map<string, { runs: number; status: string; ref: string }>();
  for (const r of records) {
    if (r.use.name !== 'Bash' || typeof r.use.input.command !== 'string' || !r.resultMessage) continue;
    const key = oneLine(r.use.input.command, MAX_COMMAND);
    const entry = commands.get(key) ?? { runs: 0, status: '', ref: '' };
    entry.runs++;
    entry.status = exitStatus(r.isError === true, r.text ?? '');
    entry.ref = r.resultMessage.uuid;
    commands.delete(key);
    commands.set(key, entry);
  }
  for (const [command, { runs, status, ref }] of commands) notes.workflow.push({ text: `${code(command)} → ${status}${runs > 1 ? ` (${runs} runs)` : ''}`, refs: [ref] });

  // Errors, and what the transcript shows fixed them: a later success of the same command or file.
  const byTarget = new Map<string, number[]>();
  const targets = records.map((r) => targetOf(r.use));
  const position = new Map<number, number>();
  records.forEach((r, i) => {
    if (!r.resultMessage) return;
    const list = byTarget.get(targets[i]!) ?? [];
    if (list.length === 0) byTarget.set(targets[i]!, list);
    position.set(i, list.length);
    list.push(i);
  });
  records.forEach((r, i) => {
    if (!r.isError || !r.resultMessage) return;
    const next = byTarget.get(targets[i]!)![position.get(i)! + 1];
    if (next !== undefined && records[next]!.isError) return; // the next failure of the same thing says it
    const failed = `${describeUse(r.use)} failed: ${errorLine(r.text ?? '')}`;
    if (next === undefined) {
      notes.errors.push({ text: `${failed}; not yet retried with success`, refs: [r.resultMessage.uuid] });
      return;
    }
    const retry = records[next]!;
    const between = records.slice(i + 1, next).filter((b) => b.resultMessage && !b.isError && (EDIT_TOOLS.has(b.use.name) || READ_TOOLS.has(b.use.name)));
    const after =
      between.length > 0
        ? ` after ${between
            .slice(-3)
            .map((b) => describeUse(b.use))
            .join(', ')}`
        : '';
    notes.errors.push({ text: `${failed}; then succeeded${after}`, refs: [r.resultMessage.uuid, retry.resultMessage!.uuid] });
  });
  const corrections = prompts.filter((p) => p.isHumanPrompt && CORRECTION.test(p.text.trim()));
  for (const p of corrections.slice(-MAX_CORRECTIONS)) notes.errors.push({ text: `User correction: ${quote(p.text)}`, refs: [p.uuid] });

  // Worklog: one line per turn that began with a prompt.
  const recordsOf = new Map<TranscriptMessage, UseRecord[]>();
  for (const r of records) {
    const list = recordsOf.get(r.message);
    if (list) list.push(r);
    else recordsOf.set(r.message, [r]);
  }
  for (const turn of turns) {
    if (!turn.prompt) continue;
    const uses = turn.messages.flatMap((m) => m.toolUses);
    const turnRecords = turn.messages.flatMap((m) => recordsOf.get(m) ?? []);
    const edited = new Set(turnRecords.filter((r) => EDIT_TOOLS.has(r.use.name) && r.resultMessage && !r.isError).map((r) => fileOf(r.use)));
    const errors = turnRecords.filter((r) => r.isError).length;
    const parts = [uses.length === 0 ? 'no tool calls' : `${uses.length} tool call${uses.length === 1 ? '' : 's'} (${countBy(uses.map((u) => u.name))})`];
    if (edited.size > 0) parts.push(`edited ${edited.size} file${edited.size === 1 ? '' : 's'}`);
    if (errors > 0) parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
    const end = turn.messages.at(-1)!;
    const when = timeOf(turn.prompt);
    notes.worklog.push({ text: `${when ? `${when} ` : ''}${quote(said(turn.prompt), 80)} → ${parts.join('; ')}`, refs: end === turn.prompt ? [turn.prompt.uuid] : [turn.prompt.uuid, end.uuid] });
  }
  return notes;
}

/** Every item's text with its secrets replaced by [REDACTED]. */
export function redactNotes(notes: Notes): Notes {
  return Object.fromEntries(SECTION_IDS.map((id) => [id, notes[id].map((item) => ({ ...item, text: redactSecrets(item.text) }))])) as unknown as Notes;
}

/** How a uuid is cited: its first 8 characters, or more where 8 are not unique in the transcript. */
export function refNamer(uuids: Iterable<string>): (uuid: string) => string {
  const all = [...uuids];
  const count = new Map<string, number>();
  for (const uuid of all) count.set(uuid.slice(0, 8), (count.get(uuid.slice(0, 8)) ?? 0) + 1);
  return (uuid) => {
    const short = uuid.slice(0, 8);
    if ((count.get(short) ?? 0) <= 1) return short.replace(/[^A-Za-z0-9_-]/g, '_');
    return uuid.replace(/[^A-Za-z0-9_-]/g, '_');
  };
}

function itemLine(item: NoteItem, ref: (uuid: string) => string): string {
  const refs = [...new Set(item.refs)].map((uuid) => `[m:${ref(uuid)}]`).join('');
  return `- ${oneLine(item.text, 2_000)} ${refs}`;
}

/** The order in which sections give up their oldest lines when the notes are over budget. */
const FOLD_ORDER: readonly SectionId[] = ['worklog', 'workflow', 'files', 'errors', 'codebase', 'learnings', 'task', 'results', 'currentState'];

export interface RenderOptions {
  sessionId: string;
  /** Most tokens (characters / 4) the notes may take. */
  maxTokens: number;
  ref: (uuid: string) => string;
}

/** What was folded to keep within budget: lines per section. */
export type Folded = Partial<Record<SectionId, number>>;

/**
 * The notes as markdown: a comment naming the session, then each section's heading, its one-line
 * description and its items. Over budget, the oldest items fold into one line (worklog first, then
 * commands, files…), which still cites the first and last message it stands for.
 */
export function renderNotes(notes: Notes, options: RenderOptions): { text: string; tokens: number; folded: Folded } {
  const head = `<!-- memdir session notes: session ${oneLine(options.sessionId, 100).replace(/-->/g, '')}; [m:…] cites the transcript messages (uuid prefixes) each line comes from -->\n`;
  const lines = Object.fromEntries(SECTION_IDS.map((id) => [id, notes[id].map((item) => itemLine(item, options.ref))])) as Record<SectionId, string[]>;
  const skeleton = SECTIONS.map((s) => `\n# ${s.heading}\n_${s.about}_\n`).join('');
  const size = (list: readonly string[]) => list.reduce((sum, line) => sum + line.length + 1, 0);
  let chars = head.length + skeleton.length + SECTION_IDS.reduce((sum, id) => sum + size(lines[id]), 0);
  const budget = options.maxTokens * 4;
  const folded: Folded = {};
  for (const id of FOLD_ORDER) {
    if (chars <= budget) break;
    const items = notes[id];
    const all = lines[id];
    const whole = size(all);
    // Fold the oldest n items into one summary line: the smallest n that fits, else all of them.
    const summary = (n: number) =>
      itemLine(
        { text: `${n} ${id === 'worklog' ? 'earlier turns' : 'earlier entries'} folded to keep these notes within budget`, refs: [items[0]!.refs[0]!, items[n - 1]!.refs.at(-1)!] },
        options.ref,
      );
    let removed = 0;
    let n = 0;
    let line = '';
    while (n < items.length) {
      removed += all[n]!.length + 1;
      n++;
      line = summary(n);
      if (chars - removed + line.length + 1 <= budget) break;
    }
    if (n === 0) continue;
    lines[id] = [line, ...all.slice(n)];
    chars += size(lines[id]) - whole;
    folded[id] = n;
    // Even the summary alone does not fit: the section keeps only its heading.
    if (chars > budget) {
      chars -= size(lines[id]);
      lines[id] = [];
    }
  }
  const body = SECTIONS.map((s) => `\n# ${s.heading}\n_${s.about}_\n${lines[s.id].map((l) => `${l}\n`).join('')}`).join('');
  const text = head + body;
  return { text, tokens: estimateTokens(text), folded };
}

/** The sections of a notes file as written (headings present, in any order): for checks and the claude engine's input. */
export function sectionsOf(text: string): Set<string> {
  return new Set([...text.matchAll(/^# (.+)$/gm)].map((m) => m[1]!.trim()));
}
