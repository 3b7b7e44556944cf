import fs from 'node:fs';
import path from 'node:path';
import { RefusedError } from '../core/errors.js';
import { doctorText as text } from '../core/doctor-findings.js';
import { fittedHook, parseMemoryIndex, pointerPath, pointers, renderMemoryIndex, upsertPointer } from '../core/memory-index.js';
import { headFields } from '../core/topic-file.js';
import { INDEX_FILE, STATE_DIR } from '../core/taxonomy.js';
import { commitChanges, writeStateFile, type FileChange } from '../store/atomic.js';
import { withDirLock } from '../store/lock.js';

/** Undo records, under the target directory's `.memdir/`. */
const HISTORY = 'doctor';

export interface MergeResult {
  from: string;
  into: string;
  moved: string[];
  /** Same name, same bytes: the copy in the split store is dropped. */
  dropped: string[];
  /** Same name, other bytes: kept beside the canonical one. */
  renamed: Array<{ from: string; to: string }>;
  /** Not UTF-8 text, or a link: never merged, left where it is. */
  left: string[];
  pointersAdded: number;
  record: string;
}

interface RecordFile {
  /** Which directory: the split store or the canonical one. */
  dir: 'from' | 'into';
  path: string;
  before: string | null;
  after: string | null;
}

interface UndoRecord {
  time: string;
  from: string;
  into: string;
  files: RecordFile[];
  undone?: string;
}

/**
 * Merge the split store `fromDir` into `intoDir`: files of a name the canonical directory lacks are
 * moved, identical ones dropped, different ones kept as `name.from-<folder>.md`; the split index's
 * pointers join the canonical index. The undo record (every file's bytes before and after) is
 * written before anything changes; each directory then changes in one journaled transaction.
 */
export async function mergeSplitStore(fromDir: string, intoDir: string, now = new Date()): Promise<MergeResult> {
  fs.mkdirSync(intoDir, { recursive: true });
  return withDirLock(intoDir, () => withDirLock(fromDir, () => merge(fromDir, intoDir, now)));
}

function merge(fromDir: string, intoDir: string, now: Date): MergeResult {
  const folder = path.basename(path.dirname(fromDir));
  const result: MergeResult = { from: fromDir, into: intoDir, moved: [], dropped: [], renamed: [], left: [], pointersAdded: 0, record: '' };
  const files: RecordFile[] = [];
  const intoChanges: FileChange[] = [];
  const fromChanges: FileChange[] = [];
  /** Where each file of the split store lands in the canonical one. */
  const landed = new Map<string, string>();
  for (const name of fs
    .readdirSync(fromDir)
    .filter((f) => f.endsWith('.md') && f !== INDEX_FILE)
    .sort()) {
    // A link is never followed out of the split store into memory the agent loads.
    const source = fs.lstatSync(path.join(fromDir, name)).isFile() ? readUtf8(path.join(fromDir, name)) : undefined;
    if (source === undefined) {
      result.left.push(name);
      continue;
    }
    const existing = readUtf8(path.join(intoDir, name));
    if (existing === undefined && fs.existsSync(path.join(intoDir, name))) {
      result.left.push(name);
      continue;
    }
    let target = name;
    if (existing === source) result.dropped.push(name);
    else if (existing === undefined) result.moved.push(name);
    else {
      target = freeName(intoDir, `${name.slice(0, -'.md'.length)}.from-${folder}.md`);
      result.renamed.push({ from: name, to: target });
    }
    landed.set(name, target);
    if (existing !== source) {
      intoChanges.push({ path: target, content: source });
      files.push({ dir: 'into', path: target, before: null, after: source });
    }
    fromChanges.push({ path: name, delete: true });
    files.push({ dir: 'from', path: name, before: source, after: null });
  }

  const fromIndex = readUtf8(path.join(fromDir, INDEX_FILE));
  const intoIndexBefore = readUtf8(path.join(intoDir, INDEX_FILE));
  let index = parseMemoryIndex(intoIndexBefore ?? '');
  const known = new Set(pointers(index).map((p) => pointerPath(p.target)));
  const add = (pointer: { title: string; target: string; hook: string }) => {
    if (known.has(pointer.target)) return;
    index = upsertPointer(index, pointer);
    known.add(pointer.target);
    result.pointersAdded++;
  };
  // The split index's pointers first, as its author wrote them; then one for each landed file it did not point to.
  for (const pointer of fromIndex === undefined ? [] : pointers(parseMemoryIndex(fromIndex))) {
    const target = landed.get(pointerPath(pointer.target));
    if (target) add({ title: pointer.title, target, hook: pointer.hook });
  }
  for (const [name, target] of landed) {
    if (known.has(target)) continue;
    const fields = headFields(readUtf8(path.join(fromDir, name)) ?? '');
    const title = fields.name ?? name.slice(0, -'.md'.length);
    add({ title, target, hook: fittedHook(title, target, fields.description ?? title) });
  }
  const merged = renderMemoryIndex(index);
  if (merged !== (intoIndexBefore ?? '')) {
    intoChanges.push({ path: INDEX_FILE, content: merged });
    files.push({ dir: 'into', path: INDEX_FILE, before: intoIndexBefore ?? null, after: merged });
  }
  if (fromIndex !== undefined) {
    fromChanges.push({ path: INDEX_FILE, delete: true });
    files.push({ dir: 'from', path: INDEX_FILE, before: fromIndex, after: null });
  }

  const record: UndoRecord = { time: now.toISOString(), from: fromDir, into: intoDir, files };
  result.record = writeStateFile(intoDir, path.join(HISTORY, `${stamp(intoDir, now)}.json`), JSON.stringify(record, null, 2));
  commitChanges(intoDir, intoChanges);
  commitChanges(fromDir, fromChanges);
  return result;
}

export interface UndoResult {
  record: string;
  from: string;
  into: string;
  restored: number;
}

/** Reverse the last merge recorded in `intoDir`, byte for byte; refused when a file it wrote changed since. */
export async function undoLastMerge(intoDir: string): Promise<UndoResult> {
  const history = path.join(intoDir, STATE_DIR, HISTORY);
  const records = (fs.existsSync(history) ? fs.readdirSync(history) : []).filter((f) => f.endsWith('.json')).sort();
  for (const name of records.reverse()) {
    const file = path.join(history, name);
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as UndoRecord;
    if (record.undone) continue;
    return withDirLock(intoDir, () =>
      withDirLock(record.from, () => {
        const changes: Record<'from' | 'into', FileChange[]> = { from: [], into: [] };
        for (const entry of record.files) {
          const dir = entry.dir === 'from' ? record.from : record.into;
          const now = readUtf8(path.join(dir, entry.path)) ?? null;
          // A merge killed between its two transactions left some files as they were: those are fine too.
          if (now !== entry.after && now !== entry.before) throw new RefusedError(text.undoChanged(path.join(dir, entry.path)));
          changes[entry.dir].push(entry.before === null ? { path: entry.path, delete: true } : { path: entry.path, content: entry.before });
        }
        fs.mkdirSync(record.from, { recursive: true });
        commitChanges(record.from, changes.from);
        commitChanges(record.into, changes.into);
        writeStateFile(intoDir, path.join(HISTORY, name), JSON.stringify({ ...record, undone: new Date().toISOString() }, null, 2));
        return { record: file, from: record.from, into: record.into, restored: record.files.length };
      }),
    );
  }
  throw new RefusedError(text.nothingToUndo(intoDir));
}

/** The file's text when it is UTF-8 that round-trips byte for byte; undefined otherwise (or absent). */
function readUtf8(file: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const decoded = bytes.toString('utf8');
  return Buffer.from(decoded, 'utf8').equals(bytes) ? decoded : undefined;
}

function freeName(dir: string, name: string): string {
  let candidate = name;
  for (let i = 2; fs.existsSync(path.join(dir, candidate)); i++) candidate = name.replace(/\.md$/, `-${i}.md`);
  return candidate;
}

function stamp(dir: string, at: Date): string {
  const base = at.toISOString().replace(/:/g, '-');
  let candidate = base;
  for (let i = 2; fs.existsSync(path.join(dir, STATE_DIR, HISTORY, `${candidate}.json`)); i++) candidate = `${base}-${i}`;
  return candidate;
}
