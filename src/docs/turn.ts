/**
 * What the new part of a transcript did, as `memdir docs` needs it: which Magic Docs it read (a Read
 * of the file, or the doc's header in a tool result: `cat`, a grep), what it touched (files written,
 * commands run, files read), and the new facts a model is shown to update a doc with.
 */
import fs from 'node:fs';
import path from 'node:path';
import { redactSecrets } from '../core/secrets.js';
import { WRITE_TOOLS, type TranscriptMessage } from '../claude-code/transcript.js';
import type { MagicDoc } from './find.js';

/** Characters of one tool result the reader keeps. */
export const TOOL_RESULT_CHARS = 4_000;
/** Most characters of new facts sent with one doc: the newest are kept. */
const MAX_FACTS_CHARS = 40_000;
const MAX_TEXT_CHARS = 4_000;
const MAX_RESULT_CHARS = 2_000;

export interface Touched {
  kind: 'edited' | 'ran' | 'read';
  /** A path relative to the repository when it lies inside it, else as written; or the command's first line. */
  what: string;
  /** The assistant message that did it. */
  uuid: string;
}

/** `file` as the agent named it (absolute, or relative to the repository), in its absolute and real forms. */
function forms(file: string, root: string): string[] {
  const absolute = path.resolve(root, file);
  try {
    return [absolute, fs.realpathSync(absolute)];
  } catch {
    return [absolute];
  }
}

/** The path to show for a file the agent touched: relative to the repository when inside it. */
function shown(file: string, root: string): string {
  const relative = path.relative(root, path.resolve(root, file));
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : file;
}

const firstLine = (text: string) => (text.split('\n')[0] ?? '').trim().slice(0, 200);

/** What the messages did, in order: files written, commands run, files read. */
export function touchedBy(messages: readonly TranscriptMessage[], root: string): Touched[] {
  const touched: Touched[] = [];
  for (const message of messages) {
    for (const use of message.toolUses) {
      const file = use.input.file_path ?? use.input.notebook_path;
      if (WRITE_TOOLS.has(use.name) && typeof file === 'string') touched.push({ kind: 'edited', what: shown(file, root), uuid: message.uuid });
      else if (use.name === 'Read' && typeof file === 'string') touched.push({ kind: 'read', what: shown(file, root), uuid: message.uuid });
      else if (use.name === 'Bash' && typeof use.input.command === 'string') touched.push({ kind: 'ran', what: firstLine(use.input.command), uuid: message.uuid });
    }
  }
  return touched;
}

/** Whether the messages read `doc`: a Read of its file, or its header line in a tool result. */
export function readsDoc(messages: readonly TranscriptMessage[], doc: MagicDoc, root: string): boolean {
  const header = `# MAGIC DOC: ${doc.title}`;
  for (const message of messages) {
    for (const use of message.toolUses) {
      const file = use.input.file_path;
      if (use.name === 'Read' && typeof file === 'string' && forms(file, root).includes(doc.file)) return true;
    }
    if (message.toolResults?.some((result) => result.text.includes(header))) return true;
  }
  return false;
}

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** One line per tool use: what the agent did, as the model reads it. */
function toolLine(name: string, input: Record<string, unknown>, root: string): string {
  const file = input.file_path ?? input.notebook_path;
  if (typeof file === 'string') return `[${name} ${shown(file, root)}]`;
  if (typeof input.command === 'string') return `[${name}: ${cut(input.command.trim(), 500)}]`;
  if (typeof input.pattern === 'string') return `[${name} ${cut(input.pattern, 200)}]`;
  return `[${name}]`;
}

/**
 * The new facts of the messages as a model is shown them: what the user asked, what the agent said
 * and did, what the tools answered (each cut short, the newest kept within the budget), secrets
 * redacted before anything leaves the machine.
 */
export function newFacts(messages: readonly TranscriptMessage[], root: string): string {
  const parts: string[] = [];
  let size = 0;
  for (const message of [...messages].reverse()) {
    const lines: string[] = [];
    if (message.text && (message.role === 'assistant' || message.isHumanPrompt)) lines.push(cut(message.text, MAX_TEXT_CHARS));
    for (const use of message.toolUses) lines.push(toolLine(use.name, use.input, root));
    for (const result of message.toolResults ?? []) if (result.text.trim()) lines.push(`[tool result${result.isError ? ', an error' : ''}]\n${cut(result.text, MAX_RESULT_CHARS)}`);
    if (lines.length === 0) continue;
    const who = message.role === 'assistant' ? 'agent' : message.isHumanPrompt ? 'user' : 'tools';
    const part = `<message role="${who}">\n${escapeText(lines.join('\n'))}\n</message>`;
    if (size + part.length > MAX_FACTS_CHARS) break;
    parts.unshift(part);
    size += part.length;
  }
  return redactSecrets(parts.join('\n'));
}

/** Words of a doc's title worth matching a path or command against. */
const STOP_WORDS = new Set(['the', 'and', 'for', 'doc', 'docs', 'notes', 'list', 'with', 'this', 'that', 'our', 'all', 'how', 'what']);

function titleWords(title: string): Set<string> {
  return new Set(
    title
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3 && !STOP_WORDS.has(w)),
  );
}

export interface Concern {
  kind: Touched['kind'];
  what: string;
  /** Why it concerns the doc. */
  why: 'named in the doc' | "in the doc's folder" | 'matches the title';
}

/**
 * What of the touched concerns a doc, for the offline listing: a file or command the doc names, a file
 * in the doc's folder (unless the doc sits at the repository's top), or one whose words are in its title.
 */
export function concerns(doc: MagicDoc, text: string, touched: readonly Touched[]): Concern[] {
  const found = new Map<string, Concern>();
  const folder = path.posix.dirname(doc.path);
  const words = titleWords(doc.title);
  for (const item of touched) {
    if (item.kind !== 'ran' && item.what === doc.path) continue;
    const key = `${item.kind} ${item.what}`;
    if (found.has(key)) continue;
    let why: Concern['why'] | undefined;
    if (item.kind === 'ran') {
      const [program, sub] = item.what.split(/\s+/);
      const named = sub && !sub.startsWith('-') ? `${program} ${sub}` : program;
      if (named && named.length >= 4 && text.includes(named)) why = 'named in the doc';
    } else {
      const base = path.posix.basename(item.what);
      if (text.includes(item.what) || (base.length >= 4 && text.includes(base))) why = 'named in the doc';
      else if (item.kind === 'edited' && folder !== '.' && item.what.startsWith(`${folder}/`)) why = "in the doc's folder";
    }
    if (
      !why &&
      item.what
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .some((w) => words.has(w))
    )
      why = 'matches the title';
    if (why) found.set(key, { kind: item.kind, what: item.what, why });
  }
  return [...found.values()];
}
