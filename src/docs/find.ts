/**
 * Finding the Magic Docs of a repository: the `.md` files git lists (tracked, or untracked and not
 * ignored: `.gitignore` is respected) whose first line is the header. Each file is opened without
 * following a link and only its first bytes are read; a link, a file outside the repository's real
 * folder, a binary or non-UTF-8 file is skipped with its reason.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { IoError } from '../core/errors.js';
import { lazyRequire } from '../core/lazy.js';
import { MAGIC_DOC_MAX_BYTES, MAGIC_HEAD_BYTES, magicDocHead } from '../core/magic-doc.js';
import { messages } from '../core/messages.js';

/** Most `.md` files looked at in one repository; past it the rest are not read (a vendored tree of docs). */
export const MAX_CANDIDATES = 20_000;

export interface MagicDoc {
  /** Relative to the repository root, with `/`. */
  path: string;
  /** Absolute. */
  file: string;
  title: string;
  instructions: string | undefined;
  bytes: number;
}

export interface SkippedDoc {
  path: string;
  reason: string;
}

export interface FoundDocs {
  root: string;
  docs: MagicDoc[];
  skipped: SkippedDoc[];
  /** More `.md` files than MAX_CANDIDATES: the rest were not looked at. */
  truncated: boolean;
}

/** The repository's `.md` files as git lists them: tracked, or untracked and not ignored. */
async function listMarkdown(root: string): Promise<string[]> {
  const { simpleGit } = lazyRequire<typeof import('simple-git')>('simple-git');
  let out: string;
  try {
    out = await simpleGit(root).raw(['-c', 'core.quotePath=false', 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.md']);
  } catch (error) {
    throw new IoError(messages.docsGitFailed(root, String((error as Error).message ?? error).split('\n')[0] ?? ''), { cause: error });
  }
  return [...new Set(out.split('\0').filter(Boolean))];
}

/** Whether `file` is inside `root` with no link on the way (its real path is the path itself). */
function plainlyInside(realRoot: string, file: string): boolean {
  try {
    return fs.realpathSync(file) === file && !path.relative(realRoot, file).startsWith('..');
  } catch {
    return false;
  }
}

/**
 * The start of a file opened without following a link: its header, or why it is not read. A link is
 * followed only to see whether it leads to a Magic Doc, which is then skipped: memdir never writes through one.
 */
function readHead(file: string, follow = false): { head: string; bytes: number } | { reason: string } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (follow ? 0 : fs.constants.O_NOFOLLOW));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' && !follow) {
      const target = readHead(file, true);
      return target && 'head' in target && magicDocHead(target.head) ? { reason: messages.docsLink() } : undefined;
    }
    if (code === 'ENOENT' || follow) return undefined; // listed by git, deleted in the working tree; or a dangling link
    return { reason: messages.unreadable(file, code ?? String(error)) };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(MAGIC_HEAD_BYTES, stat.size));
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, read);
    const head = decodeHead(bytes);
    if (head !== undefined) return { head, bytes: stat.size };
    // Not text: said only when it starts like a Magic Doc (any other binary .md is none of memdir's business).
    return bytes
      .toString('latin1', 0, 20)
      .replace(/^\xEF\xBB\xBF/, '')
      .startsWith('# MAGIC DOC:')
      ? { reason: messages.binaryFile() }
      : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** UTF-8 text of a file's first bytes (a character cut at the end is dropped), or undefined for binary. */
function decodeHead(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  let end = bytes.length;
  // Step back over a multi-byte character the read cut in half.
  for (let back = 0; back < 3 && end > 0 && !isUtf8(bytes.subarray(0, end)); back++) end--;
  return isUtf8(bytes.subarray(0, end)) ? bytes.toString('utf8', 0, end) : undefined;
}

/** Every Magic Doc of the repository at `root` (a worktree's top folder). */
export async function findMagicDocs(root: string): Promise<FoundDocs> {
  const realRoot = fs.realpathSync(root);
  const listed = await listMarkdown(realRoot);
  const truncated = listed.length > MAX_CANDIDATES;
  const docs: MagicDoc[] = [];
  const skipped: SkippedDoc[] = [];
  for (const relative of listed.slice(0, MAX_CANDIDATES)) {
    const file = path.join(realRoot, relative);
    const start = readHead(file);
    if (start === undefined) continue;
    if ('reason' in start) {
      // A link is a Magic Doc only if it reads like one; a plain file that cannot be read is named all the same.
      skipped.push({ path: relative, reason: start.reason });
      continue;
    }
    const head = magicDocHead(start.head);
    if (!head) continue;
    if (!plainlyInside(realRoot, file)) skipped.push({ path: relative, reason: messages.docsOutsideRepository() });
    else if (start.bytes > MAGIC_DOC_MAX_BYTES) skipped.push({ path: relative, reason: messages.docsTooLarge(start.bytes, MAGIC_DOC_MAX_BYTES) });
    else docs.push({ path: relative, file, title: head.title, instructions: head.instructions, bytes: start.bytes });
  }
  return { root: realRoot, docs, skipped, truncated };
}

/** The whole text of a doc found before, read again as it is now; undefined when it is no longer a plain UTF-8 Magic Doc. */
export function readDoc(doc: MagicDoc): { text: string } | { reason: string } {
  let fd: number;
  try {
    fd = fs.openSync(doc.file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { reason: code === 'ELOOP' ? messages.docsLink() : messages.unreadable(doc.path, code ?? String(error)) };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { reason: messages.docsNotAFile() };
    if (stat.size > MAGIC_DOC_MAX_BYTES) return { reason: messages.docsTooLarge(stat.size, MAGIC_DOC_MAX_BYTES) };
    const buffer = Buffer.alloc(stat.size);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, read);
    if (bytes.includes(0) || !isUtf8(bytes)) return { reason: messages.binaryFile() };
    const text = bytes.toString('utf8');
    if (!magicDocHead(text)) return { reason: messages.docsNoLongerMagic() };
    return { text };
  } finally {
    fs.closeSync(fd);
  }
}
