import fs from 'node:fs';
import path from 'node:path';
import { InputError, IoError, RefusedError, UsageError } from '../core/errors.js';
import { INDEX_MAX_BYTES, MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { messages } from '../core/messages.js';
import { loadIndex } from '../core/load-model.js';
import { fittedHook, parseMemoryIndex, type PointerLine, pointerPath, pointers, removePointer, renderMemoryIndex, upsertPointer, type MemoryIndex } from '../core/memory-index.js';
import { freeTopicFileName, slugify } from '../core/paths.js';
import { findSecrets } from '../core/secrets.js';
import { INDEX_FILE, isMemoryType, isTeamPath, type MemoryType, TEAM_DIR } from '../core/taxonomy.js';
import { memoryFields, newTopicFile, parseTopicFile, serializeTopicFile, withBody, withFields } from '../core/topic-file.js';
import { commitChanges, type FileChange } from './atomic.js';
import { confinedPath, isConfined } from './confine.js';
import { readMemoryFile, readMemoryText } from './files.js';
import { withDirLock } from './lock.js';
import { scanMemories } from './scan.js';

export interface SaveInput {
  type: string;
  name: string;
  description: string;
  body: string;
  /** Write a private memory even when it holds a secret (a documented test key); team memory never takes one. */
  allowSecret?: boolean;
}

export interface SaveResult {
  /** Topic file, relative to the directory. */
  file: string;
  dir: string;
  created: boolean;
  pointer: string;
  /** Whether the agent loads the pointer: false when it sits past what Claude Code reads of MEMORY.md (200 lines, 25,000 characters). */
  loaded: boolean;
  /**
   * A private save of a name that only team memory had: the team file (`team/…`), left as it was.
   * The private memory is new; `--team` would have updated the team one.
   */
  teamNamesake?: string;
}

/** MEMORY.md as text (empty when missing), refusing indexes no agent could use. */
export function readIndexText(dir: string): string {
  const file = confinedPath(dir, INDEX_FILE);
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

/** Control characters, and line and paragraph separators: a name or description with one would break its pointer line. */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029]/u;

/** A name or description: one line of text, not empty. */
function checkOneLine(flag: string, value: string): void {
  if (!value.trim()) throw new UsageError(messages.emptyField(flag));
  const character = NOT_ONE_LINE.exec(value)?.[0];
  if (character) throw new UsageError(messages.notOneLine(flag, character));
}

/**
 * A memory's fields, checked before anything is written. Errors name the save command's flags, or
 * with `named: 'fields'` the fields themselves, for a memory no flag gave (extract's).
 */
export function validateSave(input: SaveInput, named: 'flags' | 'fields' = 'flags'): MemoryType {
  const label = (field: string) => (named === 'flags' ? `--${field}` : field);
  if (!isMemoryType(input.type)) throw new UsageError(messages.badType(label('type'), input.type));
  checkOneLine(label('name'), input.name);
  checkOneLine(label('description'), input.description);
  if (!input.body.trim()) throw new UsageError(named === 'flags' ? messages.emptyBody() : messages.emptyField('body'));
  return input.type;
}

function ensureDirectory(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new IoError(messages.notWritable(dir, (error as NodeJS.ErrnoException).code ?? String(error)), { cause: error });
  }
}

/** One change of a batch: write (create or update by name) a memory, or remove one. */
export type MemoryEdit =
  | ({ op: 'upsert' } & SaveInput & {
        /** Write this file (relative) rather than the one found by name or a new `type_slug.md`. */
        file?: string;
        /** Extra frontmatter keys to set, e.g. originSessionId (other keys of an existing file are kept). */
        extraFields?: Record<string, string>;
        /**
         * Add `body` at the end of an existing memory instead of replacing it: its name, description,
         * text and pointer stay as they are (someone may have written them by hand); `originSessionId`
         * is set only where missing and `originMessageUuid` gains the new sources.
         */
        append?: boolean;
        /**
         * Replace the text of the existing memory in `file`: its name, description, type and body
         * become the edit's, its pointer follows, other frontmatter keys stay and provenance is kept
         * as for `append`. `was`: its body as the caller read it; a memory changed since is refused,
         * never overwritten.
         */
        replaceBody?: { was: string };
        /** Write a new file (`type_slug.md`, else `type_slug_2.md`…) even when a memory has this name: never update that one. */
        newFile?: boolean;
      })
  | { op: 'remove'; memory: string };

export type EditResult = ({ op: 'upsert' } & SaveResult) | ({ op: 'remove' } & ForgetResult);

/** What a batch knows of the directory while it plans: the index so far and the memories by name. */
export interface BatchState {
  dir: string;
  index: MemoryIndex;
  indexText: string;
  /** Topic file → its lower-cased frontmatter name ('' when it has none). */
  names: Map<string, string>;
  changes: Map<string, FileChange>;
}

/** The index and the memories by name, as a batch (or a lookup) starts from. */
export function readBatchState(dir: string): BatchState {
  const indexText = readIndexText(dir);
  return { dir, index: parseMemoryIndex(indexText), indexText, names: memoryNames(dir), changes: new Map() };
}

/**
 * Each topic file's memory name, lower-cased, for finding a memory by name. A write finds only
 * its own scope's memories: `team/` is another scope, never updated or removed by a private edit.
 */
function memoryNames(dir: string, withTeam = false): Map<string, string> {
  return new Map(scanMemories(dir, { limit: 0, withoutTeam: !withTeam }).memories.map((m) => [m.path, m.name?.trim().toLowerCase() ?? '']));
}

/**
 * What finding a memory by file or name needs, for a command that only reads (show): an index
 * memdir cannot read (not UTF-8, a 200 KB line) only means no pointer is known, not an error.
 * `withTeam` finds team memories too (`team/…`), as a reader may name either scope.
 */
export function readLookupState(dir: string, options: { withTeam?: boolean } = {}): Pick<BatchState, 'dir' | 'index' | 'names'> {
  const read = readMemoryFile(confinedPath(dir, INDEX_FILE));
  return { dir, index: parseMemoryIndex(read?.ok ? read.text : ''), names: memoryNames(dir, options.withTeam) };
}

/** Whether `dir` is a private memory directory (its team/ is another scope), not a team directory itself. */
function isPrivateRoot(dir: string): boolean {
  return path.basename(path.resolve(dir)) !== TEAM_DIR;
}

/** The team memory directory below a private one, when there is one. */
function teamBelow(dir: string): string | undefined {
  const team = path.join(dir, TEAM_DIR);
  return isPrivateRoot(dir) && fs.existsSync(team) ? team : undefined;
}

/** The team memory `what` names (by file, `team/…` or not, or by name), as `team/…`; undefined when none. */
function teamMemoryNamed(dir: string, what: string): string | undefined {
  const team = teamBelow(dir);
  if (!team) return undefined;
  try {
    const inTeam = isTeamPath(what) && what.endsWith('.md') ? what.slice(TEAM_DIR.length + 1) : what;
    return `${TEAM_DIR}/${findMemoryFile(readLookupState(team), inTeam)}`;
  } catch {
    return undefined;
  }
}

/** What planning an upsert knows; its pointer and whether the agent loads it are read from the final index. */
type PlannedSave = Pick<SaveResult, 'file' | 'dir' | 'created' | 'teamNamesake'>;

function planUpsert(state: BatchState, edit: Extract<MemoryEdit, { op: 'upsert' }>): PlannedSave {
  const type = validateSave(edit);
  const { dir } = state;
  const key = edit.name.trim().toLowerCase();
  if (edit.file !== undefined && isTeamPath(edit.file) && isPrivateRoot(dir)) throw new RefusedError(messages.teamFileInPrivateEdit(edit.file));
  const found = edit.file ?? (edit.newFile ? undefined : [...state.names].find(([, name]) => name === key)?.[0]);
  const file = found ?? freeTopicFileName(type, edit.name, (candidate) => state.names.has(candidate) || fs.existsSync(path.join(dir, candidate)));
  const absolute = confinedPath(dir, file);
  const fields = { name: edit.name.trim(), description: edit.description.trim(), type, ...edit.extraFields };
  const pending = state.changes.get(file);
  const current = pending && 'content' in pending ? pending.content : readMemoryText(absolute, { maxBytes: MAX_TOPIC_FILE_BYTES });

  let content: string;
  if (current !== undefined && edit.append) return planAddition(state, edit, file, absolute, current);
  if (current !== undefined && edit.replaceBody) return planReplacement(state, edit, edit.replaceBody.was, file, absolute, current);
  if (current !== undefined) {
    const parsed = parseTopicFile(current);
    const problem = parsed.problems[0];
    if (problem) throw new InputError(`${absolute}:${problem.line}`, problem.message);
    const body = `${parsed.file.eol}${edit.body.trim()}${parsed.file.eol}`;
    content = serializeTopicFile(withBody(withFields(parsed.file, fields), body.replace(/\r?\n/g, parsed.file.eol)));
  } else {
    content = serializeTopicFile(withFields(newTopicFile(fields, edit.body), edit.extraFields ?? {}));
  }
  refuseSecret(dir, file, absolute, content, edit.allowSecret);
  state.changes.set(file, { path: file, content });
  state.names.set(file, key);

  const target = encodeURI(file);
  state.index = upsertPointer(state.index, { title: fields.name, target, hook: fittedHook(fields.name, target, fields.description) });
  const teamNamesake = found === undefined ? teamMemoryNamed(dir, edit.name) : undefined;
  return { file, dir, created: current === undefined, ...(teamNamesake ? { teamNamesake } : {}) };
}

/** `edit.body` added at the end of the memory in `file` (text `current`), everything else of it kept. */
function planAddition(state: BatchState, edit: Extract<MemoryEdit, { op: 'upsert' }>, file: string, absolute: string, current: string): PlannedSave {
  const parsed = parseTopicFile(current);
  const problem = parsed.problems[0];
  if (problem) throw new InputError(`${absolute}:${problem.line}`, problem.message);
  const { eol } = parsed.file;
  const data = parsed.file.frontmatter?.data ?? {};
  const provenance = keptProvenance(data, edit.extraFields);
  const body = `${eol}${parsed.file.body.trim()}${eol}${eol}${edit.body.trim()}${eol}`.replace(/\r?\n/g, eol);
  const content = serializeTopicFile(withBody(withFields(parsed.file, provenance), body));
  refuseSecret(state.dir, file, absolute, content, edit.allowSecret);
  state.changes.set(file, { path: file, content });

  if (!pointerTo(state.index, file)) {
    const fields = memoryFields(data);
    const name = fields.name ?? edit.name.trim();
    const target = encodeURI(file);
    state.index = upsertPointer(state.index, { title: name, target, hook: fittedHook(name, target, fields.description ?? edit.description.trim()) });
  }
  return { file, dir: state.dir, created: false };
}

/** Provenance fields added to a memory that has some: `originSessionId` stays the first session's, `originMessageUuid` gains the new sources. */
function keptProvenance(data: Record<string, unknown>, extraFields: Record<string, string> | undefined): Record<string, string> {
  const provenance: Record<string, string> = {};
  for (const [key, value] of Object.entries(extraFields ?? {})) {
    const before = typeof data[key] === 'string' ? (data[key] as string) : '';
    if (key === 'originMessageUuid') provenance[key] = [...new Set([...before.split(' '), ...value.split(' ')].filter(Boolean))].join(' ');
    else if (!before) provenance[key] = value;
  }
  return provenance;
}

/** The memory in `file` (text `current`, body `was` when the caller read it) with the edit's name, description, type and body. */
function planReplacement(state: BatchState, edit: Extract<MemoryEdit, { op: 'upsert' }>, was: string, file: string, absolute: string, current: string): PlannedSave {
  const parsed = parseTopicFile(current);
  const problem = parsed.problems[0];
  if (problem) throw new InputError(`${absolute}:${problem.line}`, problem.message);
  const { eol } = parsed.file;
  const same = (text: string) => text.replace(/\r\n/g, '\n').trim();
  if (same(parsed.file.body) !== same(was)) throw new RefusedError(messages.memoryChangedSinceRead(absolute));
  const fields = { name: edit.name.trim(), description: edit.description.trim(), type: edit.type, ...keptProvenance(parsed.file.frontmatter?.data ?? {}, edit.extraFields) };
  const body = `${eol}${edit.body.trim()}${eol}`.replace(/\r?\n/g, eol);
  const content = serializeTopicFile(withBody(withFields(parsed.file, fields), body));
  refuseSecret(state.dir, file, absolute, content);
  state.changes.set(file, { path: file, content });
  state.names.set(file, fields.name.toLowerCase());
  const target = encodeURI(file);
  state.index = upsertPointer(state.index, { title: fields.name, target, hook: fittedHook(fields.name, target, fields.description) });
  return { file, dir: state.dir, created: false };
}

/** The pointer line to `file` in `index`, if there is one. */
function pointerTo(index: MemoryIndex, file: string): PointerLine | undefined {
  return pointers(index).find((p) => pointerPath(p.target) === file);
}

/**
 * A memory is loaded into every session, and team memory (`<memdir>/team/`) is shared by sync: a secret
 * (in the text or the file name) is never written, whoever writes (save, extract), unless a private
 * write passes `allowSecret`.
 */
function refuseSecret(dir: string, file: string, absolute: string, content: string, allowSecret = false): void {
  const team = path.basename(path.resolve(dir)) === 'team' || file.split('/')[0] === 'team';
  if (allowSecret && !team) return;
  const rules = [...new Set([...findSecrets(file), ...findSecrets(content)].map((hit) => hit.rule.id))];
  if (rules.length > 0) throw new RefusedError(team ? messages.secretInTeam(absolute, rules.join(', ')) : messages.secretInMemory(absolute, rules.join(', ')));
}

/**
 * Which topic file `what` means: a relative path, a file name, or a memory
 * name (`names`: file → lower-cased name). Refuses (exit 1) what is outside
 * the directory, ambiguous or not there.
 */
export function findMemoryFile(state: Pick<BatchState, 'dir' | 'index' | 'names'>, what: string): string {
  if (what.endsWith('.md')) {
    const absolute = path.resolve(state.dir, what);
    // Whatever a path out of the directory names, memdir declines it.
    if (!isConfined(state.dir, absolute)) throw new RefusedError(`${what}: ${messages.escapesDirectory(state.dir)}`);
    const file = path.relative(state.dir, absolute).split(path.sep).join('/');
    const indexed = pointerTo(state.index, file) !== undefined;
    if (state.names.has(file) || fs.existsSync(absolute) || indexed) return file;
  }
  const wanted = what.trim().toLowerCase();
  const matches = [...state.names].filter(([file, name]) => name === wanted || path.basename(file, '.md') === what || slugify(name) === slugify(what)).map(([file]) => file);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw new RefusedError(messages.ambiguousMemory(what, matches.sort()));
  throw new RefusedError(messages.memoryNotFound(what, state.dir));
}

function planRemove(state: BatchState, what: string): ForgetResult {
  // A team memory is everyone's: a private forget never removes it, whether named by file or by name.
  const privateFile = isTeamPath(what) && what.endsWith('.md') && isPrivateRoot(state.dir) ? undefined : findPrivate(state, what);
  if (privateFile === undefined) {
    const team = teamMemoryNamed(state.dir, what);
    if (team) throw new RefusedError(messages.forgetTeamMemory(what, team), { hint: messages.forgetTeamHint(what) });
  }
  if (privateFile === undefined) throw new RefusedError(messages.memoryNotFound(what, state.dir));
  const file = privateFile;
  const before = state.index.lines.length;
  state.index = removePointer(state.index, file);
  const exists = state.names.has(file) || fs.existsSync(path.join(state.dir, file));
  if (exists) state.changes.set(file, { path: file, delete: true });
  state.names.delete(file);
  return { file, dir: state.dir, removedFile: exists, removedPointers: before - state.index.lines.length };
}

/** The private memory `what` names, or undefined when there is none (an ambiguous name still refuses). */
function findPrivate(state: BatchState, what: string): string | undefined {
  try {
    return findMemoryFile(state, what);
  } catch (error) {
    if (error instanceof RefusedError && error.message === messages.memoryNotFound(what, state.dir)) return undefined;
    throw error;
  }
}

/**
 * Apply many writes and removals as one locked transaction: one scan, one
 * journal commit, MEMORY.md updated in the same step. All or nothing: an
 * edit that is refused or invalid leaves every file as it was.
 */
export async function applyMemoryEdits(dir: string, edits: MemoryEdit[]): Promise<EditResult[]> {
  for (const edit of edits) if (edit.op === 'upsert') validateSave(edit);
  if (!edits.some((e) => e.op === 'upsert') && !fs.existsSync(dir)) {
    const first = edits[0];
    throw new RefusedError(messages.memoryNotFound(first && first.op === 'remove' ? first.memory : '', dir));
  }
  ensureDirectory(dir);
  return withDirLock(dir, () => {
    const state = readBatchState(dir);
    const planned = edits.map((edit) => (edit.op === 'upsert' ? { op: 'upsert' as const, ...planUpsert(state, edit) } : { op: 'remove' as const, ...planRemove(state, edit.memory) }));
    const indexText = renderMemoryIndex(state.index);
    const changes = [...state.changes.values()];
    if (indexText !== state.indexText) changes.push({ path: INDEX_FILE, content: indexText });
    commitChanges(dir, changes);
    // A pointer is seen when its line is among the lines the agent loads (not in a comment, not cut).
    const load = loadIndex(indexText);
    const loaded = new Set(load.fileLines.slice(0, load.loadedLines));
    const finalIndex = parseMemoryIndex(indexText);
    return planned.map((r): EditResult => {
      if (r.op === 'remove') return r;
      const pointer = pointerTo(finalIndex, r.file);
      return { ...r, pointer: pointer?.raw ?? '', loaded: pointer !== undefined && loaded.has(pointer.line) };
    });
  });
}

/**
 * Write one memory: its topic file and its pointer in MEMORY.md, as one
 * locked transaction. A memory with the same name is updated in place and
 * keeps its file name and any frontmatter keys memdir does not own.
 */
export async function saveMemory(dir: string, input: SaveInput): Promise<SaveResult> {
  const [result] = await applyMemoryEdits(dir, [{ op: 'upsert', ...input }]);
  const { op: _op, ...saved } = result as Extract<EditResult, { op: 'upsert' }>;
  return saved;
}

export interface ForgetResult {
  file: string;
  dir: string;
  removedFile: boolean;
  removedPointers: number;
}

/** Remove a topic file and every pointer to it, as one locked transaction. */
export async function forgetMemory(dir: string, what: string): Promise<ForgetResult> {
  const [result] = await applyMemoryEdits(dir, [{ op: 'remove', memory: what }]);
  const { op: _op, ...forgotten } = result as Extract<EditResult, { op: 'remove' }>;
  return forgotten;
}
