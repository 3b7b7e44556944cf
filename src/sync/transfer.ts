/**
 * `memdir export` and `memdir import`: a memory directory moved without git, as a tar or a folder.
 * The same path keys as sync (checked both ways), the same folders left out (`.memdir/`, and
 * `team/` unless asked), and an import is all or nothing: every entry is checked before anything
 * is written, then one locked transaction writes what is new.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError, UsageError } from '../core/errors.js';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { messages } from '../core/messages.js';
import { findSecrets } from '../core/secrets.js';
import { INDEX_FILE, STATE_DIR } from '../core/taxonomy.js';
import { readTar, writeTar } from '../core/tar.js';
import { commitChanges } from '../store/atomic.js';
import { confinedPath } from '../store/confine.js';
import { decodeMemoryBytes } from '../store/files.js';
import { withDirLock } from '../store/lock.js';
import { mergeTeamIndex } from './index-merge.js';
import { caseCollisions, keyProblem } from './keys.js';
import { PERSONAL_ROOT, readTeam, type SyncRoot } from './team.js';

export interface ExportOptions {
  /** A new FILE.tar, or a new or empty folder. */
  out: string;
  /** team/ too. */
  team?: boolean | undefined;
}

export interface ExportResult {
  out: string;
  /** Path keys written, sorted. */
  files: string[];
  /** Files that could not travel, with the reason. */
  skipped: Array<{ file: string; reason: string }>;
}

export interface ImportOptions {
  /** Replace a different existing file with the imported one. */
  force?: boolean | undefined;
  /** Import files that hold a secret too. */
  allowSecret?: boolean | undefined;
}

export type ImportStatus = 'imported' | 'unchanged' | 'merged' | 'replaced' | 'conflict' | 'refused' | 'skipped';

export interface ImportResult {
  source: string;
  memdir: string;
  files: Array<{ file: string; status: ImportStatus; reason?: string; rules?: string[] }>;
  summary: Record<ImportStatus, number>;
}

export const DEFAULT_EXPORT = 'memdir-export.tar';
/** The whole directory, team/ included (`.memdir/` and hidden names are never read). */
const WHOLE_ROOT: SyncRoot = { dir: '', exclude: [] };

const isTar = (file: string) => /\.tar$/i.test(file);

/** The private memory of `memdir` (with `team`, team/ too) as a tar or a folder at `out`; files byte for byte. */
export function exportMemory(memdir: string, options: ExportOptions): ExportResult {
  const out = path.resolve(options.out);
  if (!fs.existsSync(memdir)) throw new InputError(memdir, messages.exportNoDirectory());
  const asTar = isTar(out);
  const existing = fs.lstatSync(out, { throwIfNoEntry: false });
  if (existing && (asTar || !existing.isDirectory() || fs.readdirSync(out).length > 0)) throw new UsageError(messages.exportExists(out));
  const local = readTeam(memdir, options.team ? WHOLE_ROOT : PERSONAL_ROOT);
  const keys = [...local.files.keys()].sort();
  const files = keys.map((key) => {
    const file = path.join(memdir, key);
    return { path: key, bytes: fs.readFileSync(file), mtimeMs: fs.statSync(file).mtimeMs };
  });
  if (asTar) {
    // Temp file and rename: a reader never sees half a tar. 0600: it holds private memory.
    const temp = path.join(path.dirname(out), `.${path.basename(out)}.${process.pid}.tmp`);
    fs.writeFileSync(temp, writeTar(files), { mode: 0o600 });
    fs.renameSync(temp, out);
  } else {
    fs.mkdirSync(out, { recursive: true, mode: 0o700 });
    for (const file of files) {
      const target = path.join(out, ...file.path.split('/'));
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      fs.writeFileSync(target, file.bytes, { mode: 0o600, flag: 'wx' });
    }
  }
  return { out, files: keys, skipped: [...local.refused].map(([file, reason]) => ({ file, reason })) };
}

/** The files of an import source, checked: path key → text. Any entry that cannot be taken fails the whole import (one line naming it). */
function readSource(source: string): { files: Map<string, string>; skipped: Map<string, string> } {
  const stat = fs.statSync(source, { throwIfNoEntry: false });
  if (!stat) throw new InputError(source, messages.importNoSource());
  const raw: Array<{ key: string; bytes: Buffer }> = [];
  const skipped = new Map<string, string>();
  const refuse = (key: string, problem: string): never => {
    throw new InputError(source, messages.importBadEntry(key, problem));
  };
  const take = (entryPath: string, bytes: Buffer) => {
    const key = entryPath.replace(/^(\.\/)+/, '');
    if (key === STATE_DIR || key.startsWith(`${STATE_DIR}/`)) {
      skipped.set(key, messages.importStateSkipped()); // memdir's own state of the other machine: never a memory
      return;
    }
    // A name that stays inside but is no memory (a hidden file, a config, a picture) is left out; anything that could escape or deceive refuses the import.
    const segments = key.split('/');
    const staysInside = !key.startsWith('/') && !key.includes('\\') && segments.every((s) => s !== '' && s !== '.' && s !== '..');
    if (staysInside && (segments.some((s) => s.startsWith('.')) || !key.endsWith('.md'))) {
      skipped.set(key, messages.importNotMemory());
      return;
    }
    const problem = keyProblem(key);
    if (problem) refuse(key, problem);
    raw.push({ key, bytes });
  };
  if (stat.isDirectory()) {
    const walk = (rel: string) => {
      for (const dirent of fs.readdirSync(path.join(source, rel), { withFileTypes: true })) {
        const key = rel ? `${rel}/${dirent.name}` : dirent.name;
        if (dirent.isDirectory()) {
          if (key === STATE_DIR) skipped.set(`${key}/`, messages.importStateSkipped());
          else if (dirent.name.startsWith('.')) skipped.set(`${key}/`, messages.importNotMemory());
          else walk(key);
        } else if (dirent.isFile()) take(key, fs.readFileSync(path.join(source, key)));
        else refuse(key, dirent.isSymbolicLink() ? messages.importLink() : messages.importNotFile());
      }
    };
    walk('');
  } else {
    const read = readTar(fs.readFileSync(source));
    if ('problem' in read) throw new InputError(source, read.problem);
    for (const entry of read.entries) {
      if (entry.type === 'dir') {
        const key = entry.path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
        // A folder entry is only a name; its files are checked on their own. One that escapes is refused all the same.
        if (key && key !== '.' && key !== STATE_DIR && !key.startsWith(`${STATE_DIR}/`)) {
          const problem = keyProblem(`${key}/x.md`);
          if (problem) refuse(entry.path, problem);
        }
        continue;
      }
      if (entry.type === 'file') take(entry.path, entry.bytes);
      else refuse(entry.path, entry.type === 'link' ? messages.importLink() : `${entry.kind}, not a file`);
    }
  }
  for (const key of caseCollisions(raw.map((r) => r.key))) refuse(key, messages.syncCaseCollision());
  const files = new Map<string, string>();
  for (const { key, bytes } of raw) {
    if (files.has(key)) refuse(key, messages.importDuplicate());
    if (path.posix.basename(key) !== INDEX_FILE && bytes.length > MAX_TOPIC_FILE_BYTES) refuse(key, messages.topicTooLarge(bytes.length, MAX_TOPIC_FILE_BYTES));
    const decoded = decodeMemoryBytes(bytes);
    if (!decoded.ok) refuse(key, decoded.problem);
    else if (decoded.encoding !== 'UTF-8') refuse(key, messages.readOnlyEncoding(decoded.encoding));
    else files.set(key, decoded.text);
  }
  return { files, skipped };
}

/** The files of `source` (a tar or a folder) into `memdir`: new files written, identical ones left, a different existing file kept and reported (or replaced with `force`); an index merged. One transaction under the lock. */
export async function importMemory(memdir: string, sourcePath: string, options: ImportOptions = {}): Promise<ImportResult> {
  const source = path.resolve(sourcePath);
  const { files, skipped } = readSource(source);
  const report: ImportResult['files'] = [...skipped].map(([file, reason]) => ({ file, status: 'skipped', reason }));
  fs.mkdirSync(memdir, { recursive: true });
  await withDirLock(memdir, () => {
    const changes: Array<{ path: string; content: string }> = [];
    const refused = new Map<string, string[]>();
    for (const [key, text] of files) {
      const hits = options.allowSecret ? [] : findSecrets(text);
      if (hits.length > 0) refused.set(key, [...new Set(hits.map((h) => h.rule.id))]);
    }
    const present = (key: string) => (files.has(key) && !refused.has(key)) || fs.existsSync(path.join(memdir, key));
    for (const [key, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const target = confinedPath(memdir, key);
      const rules = refused.get(key);
      if (rules) {
        report.push({ file: key, status: 'refused', reason: messages.importSecret(rules.join(', ')), rules });
        continue;
      }
      const existing = fs.existsSync(target) ? fs.readFileSync(target) : undefined;
      if (existing === undefined) {
        changes.push({ path: key, content: text });
        report.push({ file: key, status: 'imported' });
      } else if (existing.equals(Buffer.from(text))) report.push({ file: key, status: 'unchanged' });
      else if (options.force) {
        changes.push({ path: key, content: text });
        report.push({ file: key, status: 'replaced' });
      } else if (path.posix.basename(key) === INDEX_FILE) {
        // An index is merged, not a conflict: the local one keeps its lines and gains the imported pointers to files that will be there.
        const dir = path.posix.dirname(key);
        const merged = mergeTeamIndex(existing.toString('utf8'), text, (target) => present(dir === '.' ? target : `${dir}/${target}`));
        if (merged === existing.toString('utf8')) report.push({ file: key, status: 'unchanged' });
        else {
          changes.push({ path: key, content: merged });
          report.push({ file: key, status: 'merged', reason: messages.importIndexMerged() });
        }
      } else report.push({ file: key, status: 'conflict', reason: messages.importConflict() });
    }
    // Indexes last, as sync writes them: a crash between renames never leaves one pointing at a file not yet there.
    const isIndex = (change: { path: string }) => path.posix.basename(change.path) === INDEX_FILE;
    commitChanges(memdir, [...changes.filter((c) => !isIndex(c)), ...changes.filter(isIndex)]);
  });
  report.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const summary = Object.fromEntries(
    (['imported', 'replaced', 'merged', 'unchanged', 'conflict', 'refused', 'skipped'] as const).map((status) => [status, report.filter((r) => r.status === status).length]),
  ) as ImportResult['summary'];
  return { source, memdir, files: report, summary };
}
