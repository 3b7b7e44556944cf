import matter from 'gray-matter';
import { isMemoryType, type MemoryType } from './taxonomy.js';

/** A problem found while reading a file, reported as a value, never thrown. */
export interface ParseProblem {
  line: number;
  message: string;
}

export interface Frontmatter {
  /** The YAML text between the fences, exactly as written (without the fences). */
  raw: string;
  /** The opening and closing fence lines as written (`---`, `...`, trailing blanks). */
  open: string;
  close: string;
  /** Parsed YAML; empty when it did not parse. */
  data: Record<string, unknown>;
  /** 1-based line numbers of the fences. */
  startLine: number;
  endLine: number;
}

/**
 * A topic file held so that serializing it gives back the exact bytes read:
 * BOM, line endings, unknown keys and their order, body.
 */
export interface TopicFile {
  bom: string;
  eol: '\n' | '\r\n';
  frontmatter: Frontmatter | null;
  body: string;
  /** 1-based line number where the body starts. */
  bodyLine: number;
}

export interface MemoryFields {
  name?: string;
  description?: string;
  type?: string;
}

const FENCE = /^---[ \t]*$/;
const CLOSE_FENCE = /^(?:---|\.\.\.)[ \t]*$/;

export function parseTopicFile(text: string): { file: TopicFile; problems: ParseProblem[] } {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const rest = bom ? text.slice(1) : text;
  const eol = /\r\n/.test(rest.slice(0, rest.indexOf('\n') + 1)) ? '\r\n' : '\n';
  const problems: ParseProblem[] = [];

  const lines = splitKeepingEnds(rest);
  if (lines.length === 0 || !FENCE.test(stripEnd(lines[0]!))) {
    return { file: { bom, eol, frontmatter: null, body: rest, bodyLine: 1 }, problems };
  }
  let closeIndex = -1;
  for (let i = 1; i < lines.length; i++) {
    if (CLOSE_FENCE.test(stripEnd(lines[i]!))) {
      closeIndex = i;
      break;
    }
  }
  if (closeIndex === -1) {
    problems.push({ line: 1, message: 'frontmatter is opened with --- but never closed' });
    return { file: { bom, eol, frontmatter: null, body: rest, bodyLine: 1 }, problems };
  }

  const raw = lines.slice(1, closeIndex).join('');
  const { data, problem } = parseYaml(raw);
  if (problem) problems.push({ line: problem.line + 2, message: problem.message });
  const frontmatter: Frontmatter = {
    raw,
    open: lines[0]!,
    close: lines[closeIndex]!,
    data,
    startLine: 1,
    endLine: closeIndex + 1,
  };
  const body = lines.slice(closeIndex + 1).join('');
  return { file: { bom, eol, frontmatter, body, bodyLine: closeIndex + 2 }, problems };
}

export function serializeTopicFile(file: TopicFile): string {
  const fm = file.frontmatter;
  const head = fm ? fm.open + fm.raw + fm.close : '';
  return file.bom + head + file.body;
}

/** name/description/type, reading the nested `metadata: {type}` form real files use. */
export function memoryFields(data: Record<string, unknown>): MemoryFields {
  const nested = isRecord(data.metadata) ? data.metadata : {};
  const pick = (key: string): string | undefined => scalarText(data[key] ?? nested[key]);
  const fields: MemoryFields = {};
  const name = pick('name');
  const description = pick('description');
  const type = pick('type');
  if (name !== undefined) fields.name = name;
  if (description !== undefined) fields.description = description;
  if (type !== undefined) fields.type = type;
  return fields;
}

export function memoryType(data: Record<string, unknown>): MemoryType | undefined {
  const { type } = memoryFields(data);
  return isMemoryType(type) ? type : undefined;
}

/**
 * Set top-level keys, editing only their own lines so every other byte of the
 * frontmatter (comments, unknown keys, order) survives. Adds a frontmatter
 * block when the file has none.
 */
export function withFields(file: TopicFile, fields: Record<string, string>): TopicFile {
  const eol = file.eol;
  const fm = file.frontmatter;
  let rawLines = fm ? splitKeepingEnds(fm.raw) : [];
  for (const [key, value] of Object.entries(fields)) {
    const line = `${key}: ${yamlScalar(value)}${eol}`;
    const at = rawLines.findIndex((l) => topLevelKey(l) === key);
    if (at === -1) {
      if (rawLines.length > 0 && !rawLines[rawLines.length - 1]!.endsWith('\n')) {
        rawLines[rawLines.length - 1] += eol;
      }
      rawLines.push(line);
      continue;
    }
    let end = at + 1;
    while (end < rawLines.length && isContinuation(rawLines[end]!)) end++;
    rawLines = [...rawLines.slice(0, at), line, ...rawLines.slice(end)];
  }
  const raw = rawLines.join('');
  const { data } = parseYaml(raw);
  const open = fm?.open ?? `---${eol}`;
  const close = fm?.close ?? `---${eol}`;
  const lineCount = rawLines.length;
  return {
    ...file,
    frontmatter: { raw, open, close, data, startLine: 1, endLine: lineCount + 2 },
    bodyLine: lineCount + 3,
  };
}

export function withBody(file: TopicFile, body: string): TopicFile {
  return { ...file, body };
}

/** A new topic file in the canonical layout of DESIGN §1.1. */
export function newTopicFile(fields: { name: string; description: string; type: MemoryType }, body: string): TopicFile {
  const base: TopicFile = { bom: '', eol: '\n', frontmatter: null, body: '', bodyLine: 1 };
  const withMeta = withFields(base, { name: fields.name, description: fields.description, type: fields.type });
  const text = body.trim();
  return withBody(withMeta, text ? `\n${text}\n` : '');
}

function parseYaml(raw: string): { data: Record<string, unknown>; problem?: ParseProblem } {
  if (raw.trim() === '') return { data: {} };
  try {
    // Options are passed so gray-matter does not cache by content.
    const parsed = matter(`---\n${raw.replace(/\r\n/g, '\n')}\n---\n`, { language: 'yaml' }).data as unknown;
    if (parsed === null || parsed === undefined) return { data: {} };
    if (!isRecord(parsed)) {
      return { data: {}, problem: { line: 0, message: 'frontmatter is not a YAML mapping of keys to values' } };
    }
    return { data: parsed };
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    return { data: {}, problem: { line: mark?.line ?? 0, message: `frontmatter is not valid YAML: ${reason}` } };
  }
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return undefined;
}

function yamlScalar(value: string): string {
  const plain = /^[^\s\-?:,[\]{}#&*!|>'"%@`][^\n#]*$/.test(value) && !/: |\s$/.test(value) && !/^(true|false|null|yes|no|on|off|~|[-+.\d][\d._:eE+-]*)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}

function topLevelKey(line: string): string | undefined {
  const match = /^([A-Za-z_][\w-]*)\s*:/.exec(line);
  return match?.[1];
}

function isContinuation(line: string): boolean {
  return /^[ \t]+\S/.test(line) || /^-\s/.test(line);
}

function splitKeepingEnds(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/(?<=\n)/);
  return lines;
}

function stripEnd(line: string): string {
  return line.replace(/\r?\n$/, '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
