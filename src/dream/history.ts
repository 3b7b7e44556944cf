import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RefusedError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { STATE_DIR } from '../core/taxonomy.js';
import { commitChanges, writeReportAtomic, writeStateFile, type FileChange } from '../store/atomic.js';
import { withDirLock } from '../store/lock.js';
import { statePath } from '../store/state-path.js';
import { consolidationLockStat, setConsolidationTime } from './consolidate-lock.js';

/** The history folder, under `.memdir/`. */
const HISTORY = 'dream';

/**
 * What every applied dream leaves behind: `.memdir/dream/<time>.md` (the
 * report) and `.memdir/dream/<time>/` holding the previous version of every
 * file it changed or deleted, plus a manifest, so `dream --undo` restores the
 * last run byte for byte (and refuses when a file changed since). The
 * manifest is written in the transaction that applies the run: a run killed
 * before its commit point leaves a folder without one, which is not a run
 * (swept by the next), so the run before it can still be undone.
 */
export const HISTORY_DIR = path.join(STATE_DIR, HISTORY);
const MANIFEST = 'manifest.json';

interface Manifest {
  time: string;
  /** The consolidation time before this run, put back by --undo. */
  previousConsolidation: number | null;
  files: Array<{ path: string; existed: boolean; after: string | null }>;
  undone?: string;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** A file-name-safe ISO time, unique within the history folder. */
export function runStamp(dir: string, at: Date): string {
  const base = at.toISOString().replace(/:/g, '-');
  let stamp = base;
  for (let n = 2; fs.existsSync(path.join(dir, HISTORY_DIR, stamp)); n++) stamp = `${base}-${n}`;
  return stamp;
}

/**
 * Keep the previous version of every file `changes` touches (call under the directory lock, before
 * applying them); the manifest comes back as a change to commit with them.
 */
export function keepPreviousVersions(dir: string, stamp: string, changes: FileChange[], previousConsolidation: number | undefined): FileChange {
  const folder = path.join(HISTORY, stamp);
  const manifest: Manifest = { time: stamp, previousConsolidation: previousConsolidation ?? null, files: [] };
  for (const change of changes) {
    let before: string | undefined;
    try {
      before = fs.readFileSync(path.join(dir, change.path), 'utf8');
    } catch {
      // created by this run: undo removes it
    }
    if (before !== undefined) writeStateFile(dir, path.join(folder, 'files', change.path), before);
    manifest.files.push({ path: change.path, existed: before !== undefined, after: 'delete' in change ? null : sha256(change.content) });
  }
  return manifestChange(dir, stamp, manifest);
}

/** The manifest as a change to commit with the run's files (its path checked like all state: no link on the way). */
function manifestChange(dir: string, stamp: string, manifest: Manifest): FileChange {
  statePath(dir, HISTORY, stamp, MANIFEST);
  return { path: path.join(HISTORY_DIR, stamp, MANIFEST), content: JSON.stringify(manifest, null, 2) };
}

/** Remove the history folders of runs killed before they applied (call under the directory lock). */
export function sweepUnappliedRuns(dir: string): void {
  const history = statePath(dir, HISTORY);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(history, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.isDirectory() && !fs.existsSync(path.join(history, entry.name, MANIFEST))) fs.rmSync(path.join(history, entry.name), { recursive: true, force: true });
  }
}

export function writeReport(dir: string, stamp: string, report: string): string {
  const file = statePath(dir, HISTORY, `${stamp}.md`);
  writeReportAtomic(file, report);
  return file;
}

function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** The last run not yet undone. */
function lastRun(dir: string): { stamp: string; manifest: Manifest } | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(dir, HISTORY_DIR));
  } catch {
    return undefined;
  }
  for (const stamp of names
    .filter((n) => !n.endsWith('.md'))
    .sort()
    .reverse()) {
    const manifest = readManifest(path.join(dir, HISTORY_DIR, stamp, MANIFEST));
    if (manifest && !manifest.undone) return { stamp, manifest };
  }
  return undefined;
}

export interface UndoResult {
  run: string | null;
  restored: string[];
  removed: string[];
}

/** `dream --undo`: put back every file of the last run as it was, in one transaction. */
export async function undoLastRun(dir: string, at: Date): Promise<UndoResult> {
  return withDirLock(path.resolve(dir), () => {
    sweepUnappliedRuns(dir);
    const last = lastRun(dir);
    if (!last) return { run: null, restored: [], removed: [] };
    const changes: FileChange[] = [];
    for (const file of last.manifest.files) {
      let now: string | null = null;
      try {
        now = fs.readFileSync(path.join(dir, file.path), 'utf8');
      } catch {
        // deleted by the run (or since)
      }
      if ((now === null ? null : sha256(now)) !== file.after) throw new RefusedError(messages.dreamUndoChanged(path.join(dir, file.path), last.stamp));
      changes.push(file.existed ? { path: file.path, content: fs.readFileSync(statePath(dir, HISTORY, last.stamp, 'files', file.path), 'utf8') } : { path: file.path, delete: true });
    }
    consolidationLockStat(dir); // a planted link refused before anything changes
    // Marked undone in the same step: an undo killed halfway is done or not, never half.
    commitChanges(dir, [...changes, manifestChange(dir, last.stamp, { ...last.manifest, undone: at.toISOString() })]);
    setConsolidationTime(dir, last.manifest.previousConsolidation);
    return {
      run: last.stamp,
      restored: last.manifest.files.filter((f) => f.existed).map((f) => f.path),
      removed: last.manifest.files.filter((f) => !f.existed).map((f) => f.path),
    };
  });
}
