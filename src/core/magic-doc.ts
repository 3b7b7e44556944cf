/**
 * Magic Docs: a Markdown file whose first line is `# MAGIC DOC: <title>`, optionally followed by an
 * italic line of instructions, kept current by `memdir docs` (docs/architecture.md#magic-docs).
 * Pure: the header, and the checks a new text must pass before it replaces the old one.
 */
import { findSecrets } from './secrets.js';

const HEADER = /^\uFEFF?# MAGIC DOC:[ \t]*(\S.*?)[ \t]*$/;
/** One italic line: `*…*` or `_…_`, not bold (`**`, `__`). */
const INSTRUCTIONS = /^[ \t]*(?:\*(?!\*)(.+?)\*|_(?!_)(.+?)_)[ \t]*$/;

/** Most bytes of the start of a file read to decide whether it is a Magic Doc. */
export const MAGIC_HEAD_BYTES = 4096;
/** A doc larger than this is listed but never sent or rewritten: a terse doc is far smaller. */
export const MAGIC_DOC_MAX_BYTES = 256 * 1024;
/** A new text may grow to twice the old one plus this many bytes (a near-empty doc may fill up), and never tenfold. */
export const MAGIC_DOC_GROWTH_BYTES = 512;

export interface MagicDocHead {
  title: string;
  /** The italic line's text, without its markers; undefined when there is none. */
  instructions: string | undefined;
  /** The bytes a rewrite keeps as they are: the header line through the instructions line (or the header line alone), without the final newline. */
  head: string;
}

/** The Magic Doc header of `text` (the whole file or its first bytes), or undefined when it is not one. */
export function magicDocHead(text: string): MagicDocHead | undefined {
  const firstEnd = lineEnd(text, 0);
  const first = text.slice(0, firstEnd).replace(/\r$/, '');
  const header = HEADER.exec(first);
  if (!header) return undefined;
  let headEnd = firstEnd;
  let instructions: string | undefined;
  // The instructions line is the first non-blank line after the header.
  for (let at = firstEnd + 1; at < text.length; ) {
    const end = lineEnd(text, at);
    const line = text.slice(at, end).replace(/\r$/, '');
    if (line.trim() !== '') {
      const italic = INSTRUCTIONS.exec(line);
      if (italic) {
        instructions = (italic[1] ?? italic[2] ?? '').trim();
        headEnd = end;
      }
      break;
    }
    at = end + 1;
  }
  return { title: header[1]!, instructions, head: text.slice(0, headEnd).replace(/\r$/, '') };
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

/** Why a proposed new text may not replace a doc, as a short reason; undefined when it may. */
export type RewriteProblem = 'header' | 'growth' | 'too-large' | 'secret' | 'nul' | 'empty';

export interface RewriteCheck {
  /** The text to write (the old doc's line endings and final newline carried over). */
  text: string;
  problem?: RewriteProblem;
  /** For `secret`: the rule that found it (never the secret). */
  rule?: string;
}

/**
 * Whether `proposed` may replace `old`: the header and instructions kept byte for byte, no more than
 * twice the old size plus MAGIC_DOC_GROWTH_BYTES, less than ten times it (nor MAGIC_DOC_MAX_BYTES), no NUL, and no secret the
 * old text did not already hold. The old doc's CRLF, final newline and byte-order mark are carried over first, so a
 * model answering in plain LF is not refused for that.
 */
export function checkRewrite(old: string, proposed: string): RewriteCheck {
  let text = proposed.replace(/\r\n/g, '\n');
  if (old.includes('\r\n')) text = text.replace(/\n/g, '\r\n');
  const newline = old.includes('\r\n') ? '\r\n' : '\n';
  if (old.endsWith('\n') && !text.endsWith('\n')) text += newline;
  if (!old.endsWith('\n')) text = text.replace(/\r?\n$/, '');
  if (old.startsWith('\uFEFF') && !text.startsWith('\uFEFF')) text = `\uFEFF${text}`;
  const oldHead = magicDocHead(old);
  if (text.trim() === '') return { text, problem: 'empty' };
  if (text.includes('\0')) return { text, problem: 'nul' };
  const head = oldHead?.head ?? '';
  const after = text.slice(head.length);
  if (!oldHead || !text.startsWith(head) || !(after === '' || after.startsWith('\n') || after.startsWith('\r\n'))) return { text, problem: 'header' };
  const newHead = magicDocHead(text);
  if (!newHead || newHead.head !== head) return { text, problem: 'header' };
  const oldBytes = Buffer.byteLength(old);
  const newBytes = Buffer.byteLength(text);
  if (newBytes > MAGIC_DOC_MAX_BYTES) return { text, problem: 'too-large' };
  if (newBytes > 2 * oldBytes + MAGIC_DOC_GROWTH_BYTES || newBytes >= 10 * oldBytes) return { text, problem: 'growth' };
  const known = new Set(findSecrets(old).map((hit) => old.slice(hit.index, hit.index + hit.length)));
  const added = findSecrets(text).find((hit) => !known.has(text.slice(hit.index, hit.index + hit.length)));
  if (added) return { text, problem: 'secret', rule: added.rule.id };
  return { text };
}
