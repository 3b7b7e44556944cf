import fs from 'node:fs';
import path from 'node:path';
import { InputError, IoError, MemdirError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { redactOutput } from '../core/secrets.js';
import { confinedPath } from './confine.js';
import { crashPoint } from './test-hooks.js';
import { randomHex } from './random-name.js';
import { statePath } from './state-path.js';

export const TEMP_PREFIX = '.memdir-tmp-';
export const JOURNAL_FILE = 'journal.json';
/** Where a journal goes whose roll-forward failed, so it cannot block every later command. */
const FAILED_JOURNAL_FILE = 'journal.failed.json';

/** One change of a transaction: new content for a file, or its removal. */
export type FileChange = { path: string; content: string } | { path: string; delete: true };

interface JournalEntry {
  path: string;
  temp?: string;
  delete?: true;
}

/**
 * The temp file a write goes through, next to its target: hidden, and ending in `.tmp` rather than
 * the target's `.md`, so that no tool globbing `*.md` takes a half-written memory for a second copy.
 */
function tempFor(file: string): string {
  return path.join(path.dirname(file), `${TEMP_PREFIX}${randomHex(6)}-${path.basename(file)}.tmp`);
}

function ioError(target: string, error: unknown, reading = false): IoError {
  const err = error as NodeJS.ErrnoException;
  const reason = err.code ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, '').split(',')[0]}` : String(error);
  return new IoError(reading ? messages.unreadable(target, reason) : messages.notWritable(target, reason), { cause: error });
}

/** Where a write to a path lands: the file at the end of its symlinks, and that file's stat when it exists. */
interface Landing {
  file: string;
  stat?: fs.Stats;
}

/**
 * Follows `file`'s symlinks to the file they name, so a write replaces that file and the link
 * stays (a settings file kept in a dotfiles repository). A read-only file is refused rather than
 * replaced: its mode says the user does not want it changed.
 */
function landing(file: string): Landing {
  let current = file;
  for (let hops = 0; hops < 40; hops++) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file: current };
      throw ioError(file, error);
    }
    if (!stat.isSymbolicLink()) {
      if (stat.isFile() && (stat.mode & 0o222) === 0) throw new InputError(file, messages.readOnlyFile(stat.mode & 0o7777));
      return { file: current, stat };
    }
    current = path.resolve(fs.realpathSync(path.dirname(current)), fs.readlinkSync(current));
  }
  throw new IoError(messages.notWritable(file, 'ELOOP: too many symbolic links'));
}

/** Throws, naming the file, when writeFileAtomic would refuse it (read-only); a check before other changes. */
export function refuseReadOnly(file: string): void {
  landing(file);
}

/** Writes a new file; with `like`, it gets that file's mode and, where permitted, its owner. */
function writeDurably(file: string, content: string, durable = true, like?: fs.Stats): void {
  const fd = fs.openSync(file, 'wx', 0o644);
  try {
    if (like) keepModeAndOwner(fd, like);
    fs.writeFileSync(fd, content);
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Owner first: a change of owner clears set-id bits, which the mode then puts back. */
function keepModeAndOwner(fd: number, like: fs.Stats): void {
  const own = fs.fstatSync(fd);
  if (own.uid !== like.uid || own.gid !== like.gid) {
    try {
      fs.fchownSync(fd, like.uid, like.gid);
    } catch {
      // only root may give a file away; the mode is kept all the same
    }
  }
  fs.fchmodSync(fd, like.mode & 0o7777);
}

/**
 * Write one file atomically: temp file in the same directory, fsync, rename.
 * A symlink is written through (temp and rename next to the file it names),
 * and the file keeps its mode and owner.
 * `durable: false` skips the fsync, for state that may be lost in a power
 * failure but must never be seen half-written (the rename still guarantees that).
 */
export function writeFileAtomic(file: string, content: string, options: { durable?: boolean } = {}): void {
  const target = landing(file);
  const temp = tempFor(target.file);
  try {
    fs.mkdirSync(path.dirname(target.file), { recursive: true });
    writeDurably(temp, content, options.durable, target.stat);
    crashPoint();
    fs.renameSync(temp, target.file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw ioError(file, error);
  }
}

/** A file memdir writes for people rather than as memory (a report, a commit message): secrets redacted as on every output, written atomically. */
export function writeReportAtomic(file: string, text: string, format: 'text' | 'json' = 'text'): void {
  writeFileAtomic(file, redactOutput(text, format));
}

/** A file of memdir's own state (`.memdir/<relative>`) written atomically, its folders made first; never through a link. */
export function writeStateFile(dir: string, relative: string, content: string, options: { durable?: boolean } = {}): string {
  const file = statePath(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, content, options);
  return file;
}

/**
 * Apply several changes inside `dir` as one step. Every new file is written
 * to a temp file first; a journal listing the renames is then written
 * atomically (the commit point); the renames follow. A crash before the
 * journal leaves the old state (temps are swept), a crash after it is rolled
 * forward by `recoverTransaction` on the next locked command.
 * The caller holds the directory lock.
 */
export function commitChanges(dir: string, changes: FileChange[], hooks: { afterStep?: (step: string) => void } = {}): void {
  // Refused now, with nothing changed, what would fail after the commit point: a directory in the
  // way, a read-only file. A link inside the directory is written through: the journal names the
  // file it leads to (confinedPath has refused one that leads out).
  const writes = changes.map((change) => {
    const target = confinedPath(dir, change.path);
    refuseDirectory(target);
    if ('delete' in change) return { entry: { path: change.path, delete: true } as JournalEntry };
    const lands = landing(target);
    return { change, lands, path: lands.file === target ? change.path : path.relative(fs.realpathSync(dir), lands.file) };
  });
  const entries: JournalEntry[] = [];
  const step = (name: string): void => {
    hooks.afterStep?.(name);
    crashPoint();
  };
  try {
    for (const write of writes) {
      if (!write.change) {
        entries.push(write.entry);
        continue;
      }
      fs.mkdirSync(path.dirname(write.lands.file), { recursive: true });
      const temp = tempFor(write.path);
      writeDurably(path.join(dir, temp), write.change.content, true, write.lands.stat);
      entries.push({ path: write.path, temp });
      step(`temp ${write.change.path}`);
    }
    writeFileAtomic(journalPath(dir), JSON.stringify(entries));
    step('journal');
  } catch (error) {
    for (const entry of entries) if (entry.temp) fs.rmSync(path.join(dir, entry.temp), { force: true });
    throw error instanceof MemdirError ? error : ioError(dir, error);
  }
  applyJournal(dir, entries, step);
}

function refuseDirectory(target: string): void {
  let isDirectory = false;
  try {
    isDirectory = fs.lstatSync(target).isDirectory();
  } catch {
    // absent: it will be created
  }
  if (isDirectory) throw new IoError(messages.isDirectory(target));
}

function journalPath(dir: string, file = JOURNAL_FILE): string {
  return statePath(dir, file);
}

function readJournal(file: string): JournalEntry[] | undefined {
  try {
    const entries: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return Array.isArray(entries) ? (entries as JournalEntry[]) : undefined;
  } catch {
    return undefined;
  }
}

function applyJournal(dir: string, entries: JournalEntry[], step: (name: string) => void): void {
  for (const entry of entries) {
    const target = path.join(dir, entry.path);
    try {
      if (entry.temp) {
        if (fs.existsSync(path.join(dir, entry.temp))) fs.renameSync(path.join(dir, entry.temp), target);
      } else {
        fs.rmSync(target, { force: true });
      }
    } catch (error) {
      throw ioError(target, error);
    }
    step(`apply ${entry.path}`);
  }
  fs.rmSync(journalPath(dir), { force: true });
}

/**
 * Finish a transaction a crashed process committed, or sweep the temp files
 * of one it did not. Call while holding the lock.
 */
export function recoverTransaction(dir: string, options: { sweep?: boolean } = {}): void {
  const journal = readJournal(journalPath(dir));
  if (journal) {
    try {
      applyJournal(dir, journal, () => {});
    } catch (error) {
      setJournalAside(dir, journal, error as Error);
    }
  }
  if (options.sweep ?? true) sweepTemps(dir);
}

/**
 * A journal that cannot be rolled forward would fail every command after it.
 * Move it aside (added to any earlier failed one) and say so once; the temp
 * files it names hold the content not written, and are never swept.
 */
function setJournalAside(dir: string, journal: JournalEntry[], error: Error): void {
  const failed = journalPath(dir, FAILED_JOURNAL_FILE);
  writeFileAtomic(failed, JSON.stringify([...(readJournal(failed) ?? []), ...journal]));
  fs.rmSync(journalPath(dir), { force: true });
  process.stderr.write(`${redactOutput(messages.journalSetAside(failed, error.message))}\n`);
}

function sweepTemps(dir: string): void {
  const unwritten = new Set((readJournal(journalPath(dir, FAILED_JOURNAL_FILE)) ?? []).flatMap((e) => (e.temp ? [path.join(dir, e.temp)] : [])));
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && entry.name.startsWith(TEMP_PREFIX) && !unwritten.has(file)) fs.rmSync(file, { force: true });
  }
}
