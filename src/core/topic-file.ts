import type matter from 'gray-matter';
import { lazyRequire } from './lazy.js';
import type { MemoryType } from './taxonomy.js';

/** A problem found while reading a file, reported as a value, never thrown. */
export interface ParseProblem {
  line: number;
  message: string;
  /** The file was still read, the way Claude Code reads it (unquoted `: ` in a value). */
  lenient?: boolean;
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

// gray-matter's own YAML engine (exported at runtime, missing from its types),
// called directly: memdir splits the fences itself to keep the raw bytes, and
// skipping gray-matter's file wrapper makes a 5,000-file scan much faster.
// Loaded on first use: simple frontmatter never needs it.
const yamlEngine = {
  parse: (text: string): unknown => (lazyRequire<typeof matter>('gray-matter') as unknown as { engines: { yaml: { parse(text: string): unknown } } }).engines.yaml.parse(text),
};

const DASH = 45;
const DOT = 46;

/**
 * Whether `text[start, end)`, a line with its newline, is a frontmatter fence: `---` (or, closing,
 * `...`) then only spaces and tabs. Read in place: thousands of files are parsed per scan.
 */
function isFence(text: string, start: number, end: number, closing: boolean): boolean {
  let stop = end;
  if (stop > start && text.charCodeAt(stop - 1) === 10) stop -= stop - 1 > start && text.charCodeAt(stop - 2) === 13 ? 2 : 1;
  const mark = text.charCodeAt(start);
  if (stop - start < 3 || !(mark === DASH || (closing && mark === DOT)) || text.charCodeAt(start + 1) !== mark || text.charCodeAt(start + 2) !== mark) return false;
  for (let i = start + 3; i < stop; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9) return false;
  }
  return true;
}

/** A memory file's text as a reader sees it: a byte-order mark is an encoding detail, not text. */
export function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

export function parseTopicFile(text: string): { file: TopicFile; problems: ParseProblem[] } {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const rest = bom ? text.slice(1) : text;
  const firstNewline = rest.indexOf('\n');
  const eol: TopicFile['eol'] = firstNewline > 0 && rest.charCodeAt(firstNewline - 1) === 13 ? '\r\n' : '\n';
  const problems: ParseProblem[] = [];
  const noFrontmatter = { file: { bom, eol, frontmatter: null, body: rest, bodyLine: 1 }, problems };

  // Walk line ends with indexOf: only the frontmatter is split, never the (possibly long) body.
  const lineEnd = (from: number) => {
    const at = rest.indexOf('\n', from);
    return at === -1 ? rest.length : at + 1;
  };
  const openEnd = lineEnd(0);
  if (rest.length === 0 || !isFence(rest, 0, openEnd, false)) return noFrontmatter;
  let lineNumber = 2;
  let closeStart = -1;
  let closeEnd = -1;
  for (let start = openEnd; start < rest.length; lineNumber++) {
    const end = lineEnd(start);
    if (isFence(rest, start, end, true)) {
      closeStart = start;
      closeEnd = end;
      break;
    }
    start = end;
  }
  if (closeStart === -1) {
    problems.push({ line: 1, message: 'frontmatter is opened with --- but never closed' });
    return noFrontmatter;
  }

  const raw = rest.slice(openEnd, closeStart);
  const { data, problem } = parseYaml(raw);
  if (problem) problems.push({ ...problem, line: problem.line + 2 });
  const frontmatter: Frontmatter = {
    raw,
    open: rest.slice(0, openEnd),
    close: rest.slice(closeStart, closeEnd),
    data,
    startLine: 1,
    endLine: lineNumber,
  };
  return { file: { bom, eol, frontmatter, body: rest.slice(closeEnd), bodyLine: lineNumber + 1 }, problems };
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

/**
 * Set top-level keys, editing only their own lines so every other byte of the
 * frontmatter (comments, unknown keys, order) survives. Adds a frontmatter
 * block when the file has none.
 */
export function withFields(file: TopicFile, fields: Record<string, string>, options: { quote?: boolean } = {}): TopicFile {
  const eol = file.eol;
  const fm = file.frontmatter;
  let rawLines = fm ? splitKeepingEnds(fm.raw) : [];
  for (const [key, value] of Object.entries(fields)) {
    const line = `${key}: ${options.quote ? JSON.stringify(value) : yamlScalar(value)}${eol}`;
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

/** A new topic file in the canonical layout of docs/architecture.md#memory-types. */
export function newTopicFile(fields: { name: string; description: string; type: MemoryType }, body: string): TopicFile {
  const base: TopicFile = { bom: '', eol: '\n', frontmatter: null, body: '', bodyLine: 1 };
  const withMeta = withFields(base, { name: fields.name, description: fields.description, type: fields.type });
  const text = body.trim();
  return withBody(withMeta, text ? `\n${text}\n` : '');
}

function parseYaml(raw: string): { data: Record<string, unknown>; problem?: ParseProblem } {
  if (BLANK.test(raw)) return { data: {} };
  const text = raw.includes('\r') ? raw.replace(/\r\n/g, '\n') : raw;
  const simple = simpleMapping(text);
  if (simple) return { data: simple };
  try {
    return asMapping(yamlEngine.parse(text));
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    const problem = { line: mark?.line ?? 0, message: `frontmatter is not valid YAML: ${reason}` };
    // Agents write `description: Cover letter: NYC, 1 page` unquoted, and Claude
    // Code still reads it. Do the same, but keep the problem for lint to report.
    try {
      const lenient = asMapping(yamlEngine.parse(quoteBareValues(text)));
      if (!lenient.problem) return { data: lenient.data, problem: { ...problem, lenient: true } };
    } catch {
      // not even leniently; report the original error
    }
    return { data: {}, problem };
  }
}

function asMapping(parsed: unknown): { data: Record<string, unknown>; problem?: ParseProblem } {
  if (parsed === null || parsed === undefined) return { data: {} };
  if (!isRecord(parsed)) return { data: {}, problem: { line: 0, message: 'frontmatter is not a YAML mapping of keys to values' } };
  return { data: parsed };
}

const UNQUOTED_COLON = /^([A-Za-z_][\w-]*):([ \t]+)([^'"[{|>&*!\s].*?: .*?)[ \t]*\r?$/;

/**
 * Top-level values of a frontmatter's raw text that hold an unquoted ": " —
 * YAML rejects them, Claude Code reads them. `line` is 0-based within `raw`;
 * `start`/`end` are the value's offsets in `raw`.
 */
export function unquotedColonValues(raw: string): Array<{ key: string; value: string; line: number; start: number; end: number }> {
  const found: Array<{ key: string; value: string; line: number; start: number; end: number }> = [];
  let offset = 0;
  raw.split('\n').forEach((line, i) => {
    const match = UNQUOTED_COLON.exec(line);
    if (match) {
      const start = offset + match[1]!.length + 1 + match[2]!.length;
      found.push({ key: match[1]!, value: match[3]!, line: i, start, end: start + match[3]!.length });
    }
    offset += line.length + 1;
  });
  return found;
}

/** Quote every top-level `key: value` whose value is not already quoted, a block or a collection. */
function quoteBareValues(text: string): string {
  return text.replace(/^([A-Za-z_][\w-]*):[ \t]+([^'"[{|>&*!\s].*?)[ \t]*$/gm, (_line, key: string, value: string) => `${key}: ${JSON.stringify(value)}`);
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
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const next = end === -1 ? text.length : end + 1;
    lines.push(text.slice(start, next));
    start = next;
  }
  return lines;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

// Only white space (what trim() removes), tested without a trimmed copy.
const BLANK = /^\s*$/;
const LEADING_SPACES = /^ +/;
// A top-level `key: value` line whose value YAML reads as the same plain string.
const SIMPLE_LINE = /^([A-Za-z_][\w-]*):(?:[ \t]+([^\s'"[\]{}|>&*!%@`#,?:-][^#]*?|[-?:][^\s#][^#]*?))?[ \t]*$/;
// Plain scalars YAML would turn into something else (booleans, numbers, dates, null).
const NON_STRING = /^(?:true|false|yes|no|on|off|null|~|[-+]?[\d.][\d._:eE+-]*|\d{4}-\d\d-\d\d.*)$/i;

/**
 * The mapping of a frontmatter made only of simple `key: value` lines (the
 * common case), optionally with one level of nested ones under a `key:` line
 * (`metadata:` and its indented `type: …`, as Claude Code writes), without
 * running the YAML parser, which dominates the cost of scanning or linting
 * thousands of files. Anything else returns undefined and goes through YAML,
 * so the result is the same either way (tested).
 */
function simpleMapping(text: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  // The mapping under the last `key:` line, and the indentation of its first entry (all must share it).
  let nested: Record<string, unknown> | undefined;
  let indent = '';
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (BLANK.test(line)) continue;
    let target = data;
    let entry = line;
    if (nested && line.startsWith(' ')) {
      const lead = LEADING_SPACES.exec(line)![0];
      if (indent === '') indent = lead;
      else if (lead !== indent) return undefined;
      target = nested;
      entry = line.slice(lead.length);
    } else if (nested) {
      if (indent === '') return undefined; // `key:` with nothing under it is null to YAML: let it say so
      nested = undefined;
    }
    const match = SIMPLE_LINE.exec(entry);
    if (!match) return undefined;
    const key = match[1]!;
    const value = match[2];
    if (key in target || key === '__proto__') return undefined;
    if (value === undefined) {
      if (target !== data) return undefined; // deeper nesting
      nested = target[key] = {};
      indent = '';
      continue;
    }
    if (NON_STRING.test(value)) return undefined;
    if (value.includes(': ') || value.endsWith(':')) return undefined; // YAML rejects these; let it say so
    target[key] = value;
  }
  if (nested && indent === '') return undefined;
  return data;
}

/** name/description/type of a file's first lines (the scan reads no more). */
export function headFields(text: string): MemoryFields {
  return memoryFields(parseTopicFile(text).file.frontmatter?.data ?? {});
}
