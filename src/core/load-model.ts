import { lazyRequire } from './lazy.js';
import { INDEX_MAX_BYTES, INDEX_MAX_LINES } from './limits.js';
import { INDEX_FILE } from './taxonomy.js';

/*
 * What the agent loads of MEMORY.md, as Claude Code loads it (found by experiment against the real
 * CLI, test/e2e/claude-code-load.test.ts): YAML frontmatter and HTML comment blocks are stripped,
 * the rest is trimmed and counted, cut after 200 lines, then at the last line break before 25,000
 * UTF-16 units, and a warning line is appended when anything was cut. Every limit, count and "is
 * this line seen?" answer in memdir comes from here, with a map back to the lines of the file.
 */

/**
 * The Claude Code releases whose loading differs: 2.1.197 keeps a BOM in front of frontmatter (so
 * it is not stripped) and CRs in the text; later releases drop the BOM first, normalize line
 * breaks and control characters in what they load, and name the first cut line in the warning.
 */
export type ClaudeCodeRelease = '2.1.197' | 'latest';

/**
 * The releases memdir's directory resolution and load model are checked against end to end (the
 * pinned one and the latest, package.json's devDependencies; test/unit/claude-releases.test.ts
 * keeps the two lists equal).
 */
export const CHECKED_RELEASES = ['2.1.197', '2.1.332'] as const;

export interface LoadedIndex {
  /** What the agent is given: the loaded text, plus the warning line when it was cut. */
  content: string;
  /** The part of the index the agent sees, as counted (before the warning). */
  loaded: string;
  /** Lines and UTF-16 units after stripping and trimming: what the limits apply to. */
  lineCount: number;
  byteCount: number;
  wasLineTruncated: boolean;
  wasByteTruncated: boolean;
  /** The file line (1-based) each counted line starts on: the first `loadedLines` of them are loaded. */
  fileLines: number[];
  /** How many counted lines the agent sees (the last one may be cut short by the size limit). */
  loadedLines: number;
  /** Where in the file the cut falls (0-based offset) and on which line, when something was cut. */
  cutAt: number | undefined;
  firstCutLine: number | undefined;
  /** Which limit decided where the agent stops: 200 lines, or 25,000 characters within them. */
  cutBy: 'lines' | 'size' | undefined;
  /** Whether frontmatter or comments were taken out before counting. */
  strippedFrontmatter: boolean;
  strippedComments: boolean;
}

/**
 * The text Claude Code makes of MEMORY.md's bytes: both releases read the file as UTF-8, whatever it
 * holds — a UTF-16 index, with a byte-order mark or without, loads as mojibake (2.1.197 keeps its NUL
 * bytes, later releases drop them with the other control characters), and a byte that is not UTF-8
 * becomes U+FFFD (test/e2e/claude-code-load.test.ts). Everything that says what the agent loads
 * starts from this text, not from the file decoded as memdir reads memories.
 */
export function indexTextAsLoaded(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** The UTF-16 encoding a byte-order mark announces: such an index loads as mojibake (see `indexTextAsLoaded`). */
export function utf16IndexEncoding(bytes: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16LE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16BE';
  return undefined;
}

/** Frontmatter as Claude Code matches it: `---` at the very start, up to the next `---` anywhere. */
const FRONTMATTER = /^---\s*\n([\s\S]*?)---\s*\n?/;
const COMMENT = /<!--[\s\S]*?-->/g;

/** A kept piece of the text: where it starts in the stripped text and in the file. */
interface Segment {
  at: number;
  from: number;
}

/** The index as `release` of Claude Code loads it (the latest by default). */
export function loadIndex(raw: string, release: ClaudeCodeRelease = 'latest'): LoadedIndex {
  const bom = release !== '2.1.197' && raw.charCodeAt(0) === 0xfeff ? 1 : 0;
  const match = FRONTMATTER.exec(bom ? raw.slice(bom) : raw);
  const bodyStart = bom + (match ? match[0].length : 0);
  const { text: stripped, segments, strippedComments } = stripComments(raw, bodyStart);

  const trimmed = stripped.trim();
  const leading = stripped.length - stripped.trimStart().length;
  const lines = trimmed.split('\n');
  const lineCount = lines.length;
  const byteCount = trimmed.length;
  const wasLineTruncated = lineCount > INDEX_MAX_LINES;
  const wasByteTruncated = byteCount > INDEX_MAX_BYTES;
  let loaded = wasLineTruncated ? lines.slice(0, INDEX_MAX_LINES).join('\n') : trimmed;
  let cutBy: LoadedIndex['cutBy'] = wasLineTruncated ? 'lines' : undefined;
  if (loaded.length > INDEX_MAX_BYTES) {
    const cut = loaded.lastIndexOf('\n', INDEX_MAX_BYTES);
    loaded = loaded.slice(0, cut > 0 ? cut : INDEX_MAX_BYTES);
    cutBy = 'size';
  }
  const toFile = fileOffsetMap(segments);
  const lineOf = lineNumbers(raw);
  const fileLines: number[] = [];
  for (let at = 0; ; ) {
    fileLines.push(lineOf(toFile(leading + at)));
    const next = trimmed.indexOf('\n', at);
    if (next === -1) break;
    at = next + 1;
  }
  const cutShort = wasLineTruncated || wasByteTruncated;
  const loadedLines = loaded === '' ? 0 : loaded.split('\n').length;
  // The cut falls after the line break that ends the loaded text, or inside the line it cut short.
  const cutAt = !cutShort ? undefined : toFile(leading + loaded.length + (trimmed[loaded.length] === '\n' ? 1 : 0));
  const given = cutShort ? `${loaded}\n\n> WARNING: ${warning(release, { trimmed, loaded, lineCount, byteCount, wasLineTruncated, wasByteTruncated })}` : loaded;
  let content: string | undefined;
  return {
    // Worked out when read: the counts alone (the guard's limit check) never compile sanitize's Unicode classes.
    get content() {
      // Later releases drop control characters from what they load; what that leaves at the ends is trimmed too (a UTF-16 index's last NUL after its line break).
      content ??= release === '2.1.197' ? given : cutShort ? sanitize(given) : sanitize(given).trim();
      return content;
    },
    loaded,
    lineCount,
    byteCount,
    wasLineTruncated,
    wasByteTruncated,
    fileLines,
    loadedLines,
    cutAt,
    cutBy,
    firstCutLine: cutAt === undefined ? undefined : lineOf(cutAt),
    strippedFrontmatter: Boolean(match),
    strippedComments,
  };
}

/**
 * The body without its HTML comment blocks: a top-level Markdown block that opens with `<!--` and
 * closes its comment loses its comments (and goes when nothing else is left). Comments inside a
 * paragraph, a list item, a quote, a code block, or never closed stay. The lexer is Claude Code's
 * own (marked, without GitHub extensions), loaded only when the text has a comment at all.
 */
function stripComments(raw: string, bodyStart: number): { text: string; segments: Segment[]; strippedComments: boolean } {
  const body = raw.slice(bodyStart);
  if (!body.includes('<!--')) return { text: body, segments: [{ at: 0, from: bodyStart }], strippedComments: false };
  const { Lexer } = lazyRequire<typeof import('marked')>('marked');
  // The lexer reads \r\n and \r as \n, and Claude Code keeps its reading: offsets below are in it.
  const normalized = body.replace(/\r\n?/g, '\n');
  const toFile = normalizedToFile(body, bodyStart);
  const segments: Segment[] = [];
  let text = '';
  let offset = 0;
  let keptFrom = 0;
  let strippedComments = false;
  const keep = (from: number, to: number) => {
    if (to <= from) return;
    segments.push({ at: text.length, from: toFile(from) });
    text += normalized.slice(from, to);
  };
  for (const token of new Lexer({ gfm: false }).lex(normalized)) {
    const start = offset;
    offset += token.raw.length;
    const opened = token.raw.trimStart();
    if (token.type !== 'html' || !opened.startsWith('<!--') || !opened.includes('-->')) continue;
    strippedComments = true;
    keep(keptFrom, start);
    keptFrom = offset;
    const rest = token.raw.replace(COMMENT, '');
    if (!rest.trim()) continue;
    let from = start;
    for (const comment of token.raw.matchAll(COMMENT)) {
      keep(from, start + comment.index);
      from = start + comment.index + comment[0].length;
    }
    keep(from, offset);
  }
  if (!strippedComments) return { text: body, segments: [{ at: 0, from: bodyStart }], strippedComments };
  keep(keptFrom, normalized.length);
  return { text, segments, strippedComments };
}

/** Offsets in the \n-normalized body → offsets in the file (a \r\n counts two there). */
function normalizedToFile(body: string, bodyStart: number): (offset: number) => number {
  if (!body.includes('\r\n')) return (offset) => bodyStart + offset;
  // Where each \r\n sits in the normalized text: each one before an offset adds a character in the file.
  const pairs: number[] = [];
  for (let i = body.indexOf('\r\n'); i !== -1; i = body.indexOf('\r\n', i + 2)) pairs.push(i - pairs.length);
  return (offset) => {
    let low = 0;
    let high = pairs.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (pairs[mid]! < offset) low = mid + 1;
      else high = mid;
    }
    return bodyStart + offset + low;
  };
}

/** Stripped-text offset → file offset. */
function fileOffsetMap(segments: Segment[]): (offset: number) => number {
  return (offset) => {
    let segment = segments[0]!;
    for (const s of segments) {
      if (s.at > offset) break;
      segment = s;
    }
    return segment.from + (offset - segment.at);
  };
}

/** File offset → 1-based line number. */
export function lineNumbers(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

/** Characters later releases drop from what they load: controls, format and private-use characters. */
const DROPPED = /(?!\u200c|\u200d|\ufe0e|\ufe0f)[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{DI}]/gu;

/** The loaded text as later releases put it in the prompt (line breaks normalized, invisible characters dropped, the reminder's closing tag escaped). */
function sanitize(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(DROPPED, '')
    .replace(/<\/(system-reminder)/gi, '<\\/$1');
}

function kilobytes(units: number): string {
  return `${(units / 1024).toFixed(1)}KB`;
}

/** Claude Code's own warning, worded as `release` words it. */
function warning(release: ClaudeCodeRelease, cut: { trimmed: string; loaded: string; lineCount: number; byteCount: number; wasLineTruncated: boolean; wasByteTruncated: boolean }): string {
  const { lineCount, byteCount, wasLineTruncated, wasByteTruncated } = cut;
  const size =
    wasByteTruncated && !wasLineTruncated
      ? `${kilobytes(byteCount)} (limit: ${kilobytes(INDEX_MAX_BYTES)}) — index entries are too long`
      : wasLineTruncated && !wasByteTruncated
        ? `${lineCount} lines (limit: ${INDEX_MAX_LINES})`
        : `${lineCount} lines and ${kilobytes(byteCount)}`;
  const advice = 'Keep index entries to one line under ~200 chars; move detail into topic files.';
  if (release === '2.1.197') return `${INDEX_FILE} is ${size}. Only part of it was loaded. ${advice}`;
  const { trimmed, loaded } = cut;
  const keptLines = trimmed[loaded.length] === '\n' ? loaded.split('\n').length : 0;
  let where: string;
  if (keptLines === 0) where = `everything after the first ${loaded.length} characters of line 1 was cut off`;
  else {
    const end = trimmed.indexOf('\n', loaded.length + 1);
    const next = trimmed.slice(loaded.length + 1, end === -1 ? undefined : end).trim();
    const shown = next.length > 80 ? `${next.slice(0, 79)}…` : next;
    where = `${lineCount - keptLines} of ${lineCount} lines were cut off, starting at line ${keptLines + 1}${shown ? ` ("${shown}")` : ''}`;
  }
  return `${INDEX_FILE} is ${size}. Only part of it was loaded: ${where}. ${advice}`;
}
