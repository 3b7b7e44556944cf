import { INDEX_LINE_MAX } from './limits.js';
import { shortenHook } from './shorten-hook.js';
/**
 * MEMORY.md as lines: pointers (`- [Title](file.md) — hook`), headings, blank
 * lines and everything else (paragraphs, tables, code, detail bullets), each
 * with its 1-based line number. Rendering the parsed lines gives back the text.
 */

export interface PointerLine {
  kind: 'pointer';
  line: number;
  raw: string;
  title: string;
  target: string;
  hook: string;
}

export interface HeadingLine {
  kind: 'heading';
  line: number;
  raw: string;
  level: number;
  text: string;
}

export type ContentKind = 'paragraph' | 'table' | 'code' | 'list' | 'html' | 'quote';

export interface ContentLine {
  kind: ContentKind;
  line: number;
  raw: string;
}

export interface BlankLine {
  kind: 'blank';
  line: number;
  raw: string;
}

export type IndexLine = PointerLine | HeadingLine | ContentLine | BlankLine;

export interface MemoryIndex {
  lines: IndexLine[];
  eol: '\n' | '\r\n';
  /** Whether the text ended with a line break. */
  finalNewline: boolean;
  bom: string;
}

// `- [Title](target) — hook`; the separator may be an em/en dash, hyphen or colon.
const POINTER = /^[-*+][ \t]+\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)>\s]+)>?\s*\)[ \t]*(?:(?:—|–|-{1,2}|:)[ \t]*)?(.*)$/;
const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^[ \t]{0,3}(```|~~~)/;

export function parseMemoryIndex(text: string): MemoryIndex {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom ? text.slice(1) : text;
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const finalNewline = body.endsWith('\n');
  const rawLines = body === '' ? [] : body.split(/\r?\n/);
  if (finalNewline) rawLines.pop();

  const lines: IndexLine[] = [];
  let fence: string | null = null;
  rawLines.forEach((raw, i) => {
    const line = i + 1;
    if (fence) {
      lines.push({ kind: 'code', line, raw });
      if (raw.trimStart().startsWith(fence)) fence = null;
      return;
    }
    const fenceMatch = FENCE.exec(raw);
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      lines.push({ kind: 'code', line, raw });
      return;
    }
    lines.push(classify(raw, line));
  });
  return { lines, eol, finalNewline, bom };
}

function classify(raw: string, line: number): IndexLine {
  if (raw.trim() === '') return { kind: 'blank', line, raw };
  const pointer = POINTER.exec(raw);
  if (pointer) {
    return { kind: 'pointer', line, raw, title: pointer[1]!, target: pointer[2]!, hook: pointer[3]!.trim() };
  }
  const heading = HEADING.exec(raw);
  if (heading) return { kind: 'heading', line, raw, level: heading[1]!.length, text: heading[2]! };
  const trimmed = raw.trimStart();
  if (trimmed.startsWith('|')) return { kind: 'table', line, raw };
  if (trimmed.startsWith('<')) return { kind: 'html', line, raw };
  if (trimmed.startsWith('>')) return { kind: 'quote', line, raw };
  if (/^([-*+]|\d+[.)])[ \t]/.test(trimmed)) return { kind: 'list', line, raw };
  return { kind: 'paragraph', line, raw };
}

export function renderMemoryIndex(index: MemoryIndex): string {
  const text = index.lines.map((l) => l.raw).join(index.eol);
  return index.bom + text + (index.finalNewline && index.lines.length > 0 ? index.eol : '');
}

/** The description as a hook that keeps the whole pointer line within INDEX_LINE_MAX, cut at clauses, its rules first (see shortenHook). */
export function fittedHook(title: string, target: string, description: string): string {
  const fixed = `- [${title}](${target}) — `.length;
  return shortenHook(description.replace(/\s+/g, ' ').trim(), Math.max(20, INDEX_LINE_MAX - fixed), title, true);
}

export function renderPointer(pointer: { title: string; target: string; hook: string }): string {
  const title = pointer.title.replace(/[[\]]/g, (c) => `\\${c}`);
  const hook = pointer.hook.replace(/\s+/g, ' ').trim();
  return hook ? `- [${title}](${pointer.target}) — ${hook}` : `- [${title}](${pointer.target})`;
}

export function pointers(index: MemoryIndex): PointerLine[] {
  return index.lines.filter((l): l is PointerLine => l.kind === 'pointer');
}

/** Target of a pointer as a path relative to the directory (URL-decoded, no `./`). */
export function pointerPath(target: string): string {
  let decoded = target;
  try {
    decoded = decodeURI(target);
  } catch {
    // keep the raw target: a stray % is a file name character, not an escape
  }
  return decoded.replace(/^\.\//, '').split('#')[0]!;
}

export type PointerTarget = { kind: 'external' } | { kind: 'escapes'; reason: string } | { kind: 'file'; path: string };

/**
 * Where a pointer's link target leads, from its text alone: a URL, out of the
 * directory, or a path inside it (normalized, `/` separators). The one
 * classifier lint, refactor and its nothing-lost check share.
 */
export function classifyPointerTarget(target: string): PointerTarget {
  // A file: URL is a path on this machine, never a page: it leaves the directory like an absolute path.
  if (/^file:/i.test(target)) return { kind: 'escapes', reason: 'a file: URL' };
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) && !/^[a-z]:[\\/]/i.test(target)) return { kind: 'external' };
  const rel = pointerPath(target);
  if (rel.startsWith('/') || /^[a-z]:[\\/]/i.test(rel)) return { kind: 'escapes', reason: 'an absolute path' };
  const normalized = posixNormalize(rel);
  if (normalized === '..' || normalized.startsWith('../')) return { kind: 'escapes', reason: 'a path leaving the directory (..)' };
  return { kind: 'file', path: normalized };
}

/** path.posix.normalize without node:path (core stays free of Node modules it does not need). */
function posixNormalize(rel: string): string {
  const out: string[] = [];
  for (const part of rel.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.join('/') || '.';
}

/**
 * Add a pointer, or replace the pointer already aiming at the same file.
 * New pointers go after the last pointer line, or at the end.
 */
export function upsertPointer(index: MemoryIndex, pointer: { title: string; target: string; hook: string }): MemoryIndex {
  const raw = renderPointer(pointer);
  const target = pointerPath(pointer.target);
  const existing = index.lines.findIndex((l) => l.kind === 'pointer' && pointerPath(l.target) === target);
  const next: IndexLine = { kind: 'pointer', line: 0, raw, ...pointer };
  const lines = [...index.lines];
  if (existing !== -1) {
    lines[existing] = { ...next, line: lines[existing]!.line };
  } else {
    let lastPointer = -1;
    lines.forEach((l, i) => {
      if (l.kind === 'pointer') lastPointer = i;
    });
    lines.splice(lastPointer === -1 ? lines.length : lastPointer + 1, 0, next);
  }
  return renumber({ ...index, lines, finalNewline: true });
}

/** Remove every pointer aiming at `target`. */
export function removePointer(index: MemoryIndex, target: string): MemoryIndex {
  const wanted = pointerPath(target);
  const lines = index.lines.filter((l) => !(l.kind === 'pointer' && pointerPath(l.target) === wanted));
  return renumber({ ...index, lines });
}

function renumber(index: MemoryIndex): MemoryIndex {
  return { ...index, lines: index.lines.map((l, i) => ({ ...l, line: i + 1 })) };
}

/** This many dead pointers, half the index or more, say the topic files are kept elsewhere. */
const MANY_DEAD = 10;

/**
 * Whether pointers to absent files say the files live elsewhere (gitignored, private, another
 * machine) rather than that they are gone: then no pointer is dropped as dead.
 */
export function topicFilesKeptElsewhere(dead: number, pointers: number): boolean {
  return dead >= MANY_DEAD && dead * 2 >= pointers;
}
