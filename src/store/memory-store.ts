import fs from 'node:fs';
import path from 'node:path';
import { InputError, IoError, RefusedError, UsageError } from '../core/errors.js';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { messages } from '../core/messages.js';
import { parseMemoryIndex, pointerPath, removePointer, renderMemoryIndex, upsertPointer } from '../core/memory-index.js';
import { slugify, topicFileName } from '../core/paths.js';
import { INDEX_FILE, isMemoryType, type MemoryType } from '../core/taxonomy.js';
import { INDEX_MAX_BYTES } from '../core/truncate.js';
import { newTopicFile, parseTopicFile, serializeTopicFile, withBody, withFields } from '../core/topic-file.js';
import { commitChanges, type FileChange } from './atomic.js';
import { confinedPath } from './confine.js';
import { readMemoryText } from './files.js';
import { withDirLock } from './lock.js';
import { scanMemories } from './scan.js';

export interface SaveInput {
  type: string;
  name: string;
  description: string;
  body: string;
}

export interface SaveResult {
  /** Topic file, relative to the directory. */
  file: string;
  dir: string;
  created: boolean;
  pointer: string;
}

/** Longest pointer hook kept in the index, so each line stays near 150 characters. */
const MAX_POINTER_LINE = 150;

/** MEMORY.md as text (empty when missing), refusing indexes no agent could use. */
export function readIndexText(dir: string): string {
  const file = path.join(dir, INDEX_FILE);
  const text = readMemoryText(file) ?? '';
  let start = 0;
  let lineNumber = 1;
  for (;;) {
    const end = text.indexOf('\n', start);
    const length = (end === -1 ? text.length : end) - start;
    if (length > INDEX_MAX_BYTES) {
      throw new InputError(file, messages.indexTooLongLine(lineNumber, length), { hint: 'run `memdir refactor` to split it' });
    }
    if (end === -1) return text;
    start = end + 1;
    lineNumber++;
  }
}

function validateSave(input: SaveInput): MemoryType {
  if (!isMemoryType(input.type)) throw new UsageError(messages.badType(input.type));
  if (!input.name.trim()) throw new UsageError(messages.emptyField('--name'));
  if (!input.description.trim()) throw new UsageError(messages.emptyField('--description'));
  if (!input.body.trim()) throw new UsageError(messages.emptyBody());
  return input.type;
}

function ensureDirectory(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new IoError(messages.notWritable(dir, (error as NodeJS.ErrnoException).code ?? String(error)), { cause: error });
  }
}

/** The topic file already holding a memory of this name (frontmatter `name`, case-insensitive). */
function findByName(dir: string, name: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  return scanMemories(dir, { limit: 0 }).memories.find((m) => m.name?.trim().toLowerCase() === wanted)?.path;
}

function freeFileName(dir: string, type: string, name: string): string {
  const base = topicFileName(type, name).replace(/\.md$/, '');
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${base}.md` : `${base}_${n}.md`;
    if (!fs.existsSync(path.join(dir, candidate))) return candidate;
  }
}

function pointerHook(name: string, target: string, description: string): string {
  const fixed = `- [${name}](${target}) — `.length;
  const room = Math.max(20, MAX_POINTER_LINE - fixed);
  const oneLine = description.replace(/\s+/g, ' ').trim();
  return oneLine.length <= room ? oneLine : `${oneLine.slice(0, room - 1).trimEnd()}…`;
}

/**
 * Write one memory: its topic file and its pointer in MEMORY.md, as one
 * locked transaction. A memory with the same name is updated in place and
 * keeps its file name and any frontmatter keys memdir does not own.
 */
export async function saveMemory(dir: string, input: SaveInput): Promise<SaveResult> {
  const type = validateSave(input);
  ensureDirectory(dir);
  return withDirLock(dir, () => {
    const indexText = readIndexText(dir);
    const existing = findByName(dir, input.name);
    const file = existing ?? freeFileName(dir, type, input.name);
    const absolute = confinedPath(dir, file);
    const fields = { name: input.name.trim(), description: input.description.trim(), type };

    let content: string;
    if (existing) {
      const text = readMemoryText(absolute, { maxBytes: MAX_TOPIC_FILE_BYTES }) ?? '';
      const parsed = parseTopicFile(text);
      const problem = parsed.problems[0];
      if (problem) throw new InputError(`${absolute}:${problem.line}`, problem.message);
      const body = `${parsed.file.eol}${input.body.trim()}${parsed.file.eol}`;
      content = serializeTopicFile(withBody(withFields(parsed.file, fields), body.replace(/\r?\n/g, parsed.file.eol)));
    } else {
      content = serializeTopicFile(newTopicFile(fields, input.body));
    }

    const target = encodeURI(file);
    const pointer = { title: fields.name, target, hook: pointerHook(fields.name, target, fields.description) };
    const index = upsertPointer(parseMemoryIndex(indexText), pointer);
    commitChanges(dir, [
      { path: file, content },
      { path: INDEX_FILE, content: renderMemoryIndex(index) },
    ]);
    const line = index.lines.find((l) => l.kind === 'pointer' && pointerPath(l.target) === file);
    return { file, dir, created: !existing, pointer: line?.raw ?? '' };
  });
}

export interface ForgetResult {
  file: string;
  dir: string;
  removedFile: boolean;
  removedPointers: number;
}

/** Which topic file `what` means: a relative path, a file name, or a memory name. */
function findMemory(dir: string, indexText: string, what: string): string {
  const asPath = what.endsWith('.md') ? what : undefined;
  if (asPath) {
    const absolute = confinedPath(dir, asPath);
    const indexed = parseMemoryIndex(indexText).lines.some((l) => l.kind === 'pointer' && pointerPath(l.target) === asPath);
    if (fs.existsSync(absolute) || indexed) return asPath;
  }
  const wanted = what.trim().toLowerCase();
  const matches = scanMemories(dir, { limit: 0 }).memories.filter(
    (m) => m.name?.trim().toLowerCase() === wanted || path.basename(m.path, '.md') === what || slugify(m.name ?? '') === slugify(what),
  );
  const unique = [...new Set(matches.map((m) => m.path))];
  if (unique.length === 1) return unique[0]!;
  if (unique.length > 1) throw new RefusedError(messages.ambiguousMemory(what, unique));
  throw new RefusedError(messages.memoryNotFound(what, dir));
}

/** Remove a topic file and every pointer to it, as one locked transaction. */
export async function forgetMemory(dir: string, what: string): Promise<ForgetResult> {
  if (!fs.existsSync(dir)) throw new RefusedError(messages.memoryNotFound(what, dir));
  return withDirLock(dir, () => {
    const indexText = readIndexText(dir);
    const file = findMemory(dir, indexText, what);
    const before = parseMemoryIndex(indexText);
    const after = removePointer(before, file);
    const removedPointers = before.lines.length - after.lines.length;
    const exists = fs.existsSync(path.join(dir, file));
    const changes: FileChange[] = [];
    if (exists) changes.push({ path: file, delete: true });
    if (removedPointers > 0) changes.push({ path: INDEX_FILE, content: renderMemoryIndex(after) });
    commitChanges(dir, changes);
    return { file, dir, removedFile: exists, removedPointers };
  });
}
