import fs from 'node:fs';
import path from 'node:path';
import { poisoningProblem } from '../core/poisoning.js';
import { MemdirError } from '../core/errors.js';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { messages } from '../core/messages.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { parseTopicFile } from '../core/topic-file.js';
import { commitChanges } from '../store/atomic.js';
import { confinedPath } from '../store/confine.js';
import { loadDirectories } from '../store/dir-reader.js';
import { decodeMemoryBytes } from '../store/files.js';
import { withDirLock } from '../store/lock.js';
import { writeFileAtomic } from '../store/atomic.js';
import { checkStatePath } from '../store/state-path.js';
import { caseCollisions, keyProblem } from './keys.js';
import { SYNC_STATE_DIR } from './no-change.js';

export const TEAM_DIR = 'team';
/**
 * Conflict copies: the remote's version of a file changed on both sides, kept in a hidden folder of
 * the synced directory. The directory reader skips hidden folders, so a copy is never a memory to
 * index, lint, recall or upload.
 */
export const CONFLICTS_DIR = '.conflicts';

/** The conflict copy of `key`, as a key of the synced directory. */
export function conflictCopyKey(key: string): string {
  return `${CONFLICTS_DIR}/${key}`;
}

/** What one sync carries: a folder of the memory directory ('' for the directory itself) and the folders below it it leaves out. */
export interface SyncRoot {
  dir: string;
  exclude: readonly string[];
}

/** Team memory: `team/`, whole. */
export const TEAM_ROOT: SyncRoot = { dir: TEAM_DIR, exclude: [] };
/** One person's private memory: the directory without `team/` (`.memdir/` and hidden names are never read). */
export const PERSONAL_ROOT: SyncRoot = { dir: '', exclude: [TEAM_DIR] };

/** Whether a path key lies in a folder the root leaves out. */
export function excludedKey(root: SyncRoot, key: string): boolean {
  return root.exclude.some((dir) => key === dir || key.startsWith(`${dir}/`));
}

/** How a key is shown to the user: its path in the memory directory. */
export function shownKey(root: SyncRoot, key: string): string {
  return root.dir ? `${root.dir}/${key}` : key;
}

/** The team files on this machine: path key → text; files that cannot travel, with the reason. */
export interface LocalTeam {
  files: Map<string, string>;
  refused: Map<string, string>;
}

/** Read the root's files (`<memdir>/team/` by default) through the one directory reader; keys checked on the way out. */
export function readTeam(memdir: string, root: SyncRoot = TEAM_ROOT): LocalTeam {
  const team: LocalTeam = { files: new Map(), refused: new Map() };
  const dir = path.join(memdir, root.dir);
  if (!fs.existsSync(dir)) return team;
  for (const { prefix, raw } of loadDirectories(dir)) {
    if (excludedKey(root, prefix.slice(0, -1))) continue;
    const keep = (key: string) => !excludedKey(root, prefix + key);
    for (const key of raw.escapingLinks) if (keep(key)) team.refused.set(prefix + key, messages.escapingFile());
    for (const { path: key, message } of raw.unreadable) if (keep(key)) team.refused.set(prefix + key, message);
    for (const [key, reason] of raw.readOnly) if (keep(key)) team.refused.set(prefix + key, reason);
    for (const [rel, file] of raw.files) {
      const key = prefix + rel;
      if (team.refused.has(key) || !keep(rel)) continue;
      const problem = keyProblem(key);
      if (problem) team.refused.set(key, messages.syncBadKey('local', problem));
      else team.files.set(key, file.text);
    }
  }
  for (const key of caseCollisions(team.files.keys())) {
    team.files.delete(key);
    team.refused.set(key, messages.syncCaseCollision());
  }
  return team;
}

/** A remote file checked like any input before it may replace a local one: its text, or why not. */
export function checkPulled(key: string, bytes: Buffer): { text: string } | { problem: string; heldBack?: true } {
  if (bytes.length > MAX_TOPIC_FILE_BYTES) return { problem: messages.syncPulledInvalid(messages.topicTooLarge(bytes.length, MAX_TOPIC_FILE_BYTES)) };
  const decoded = decodeMemoryBytes(bytes);
  if (!decoded.ok) return { problem: messages.syncPulledInvalid(decoded.problem) };
  if (decoded.encoding !== 'UTF-8') return { problem: messages.syncPulledInvalid(messages.readOnlyEncoding(decoded.encoding)) };
  if (path.posix.basename(key) !== INDEX_FILE) {
    const problem = parseTopicFile(decoded.text).problems.find((p) => !p.lenient);
    if (problem) return { problem: messages.syncPulledInvalid(`line ${problem.line}: ${problem.message}`) };
  }
  // Team memory is loaded into every teammate's sessions: text aimed at the agent stays on the remote.
  const poisoned = poisoningProblem(decoded.text);
  if (poisoned) return { problem: messages.syncPulledInvalid(poisoned), heldBack: true };
  return { text: decoded.text };
}

/**
 * Write the root's files as one locked transaction. Each key is confined to
 * the root first (symlinks out refused, folders it leaves out refused); what
 * cannot be written is returned with the reason and the rest is written.
 */
export async function writeTeamFiles(memdir: string, files: Map<string, string>, root: SyncRoot = TEAM_ROOT): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  if (files.size === 0) return refused;
  const teamDir = path.join(memdir, root.dir);
  fs.mkdirSync(teamDir, { recursive: true });
  await withDirLock(memdir, () => {
    const changes = [];
    for (const [key, content] of files) {
      try {
        if (excludedKey(root, key)) {
          refused.set(key, messages.syncNotWritable(messages.syncExcludedKey()));
          continue;
        }
        confinedPath(teamDir, key);
        changes.push({ path: shownKey(root, key), content });
      } catch (error) {
        if (!(error instanceof MemdirError)) throw error;
        refused.set(key, messages.syncNotWritable(messages.escapesDirectory(teamDir)));
      }
    }
    // Indexes are renamed last: a crash between two renames never leaves an index pointing at a file not yet there.
    const isIndex = (change: { path: string }) => path.posix.basename(change.path) === INDEX_FILE;
    commitChanges(memdir, [...changes.filter((c) => !isIndex(c)), ...changes.filter(isIndex)]);
  });
  return refused;
}

/** Create `.memdir/sync/` under the lock the first time, so `.memdir/` is made the one way (ignoring itself in git). */
export async function ensureSyncStateDir(memdir: string): Promise<void> {
  const dir = checkStatePath(memdir, path.join(memdir, SYNC_STATE_DIR));
  if (!fs.existsSync(dir)) await withDirLock(memdir, () => fs.mkdirSync(dir, { recursive: true }));
}

/** What was last synced with each remote: path key → the backend's hash of it. */
type SyncState = Record<string, Record<string, string>>;

function statePath(memdir: string): string {
  return path.join(memdir, SYNC_STATE_DIR, 'state.json');
}

function readState(memdir: string): SyncState {
  try {
    const state: unknown = JSON.parse(fs.readFileSync(statePath(memdir), 'utf8'));
    return state && typeof state === 'object' ? (state as SyncState) : {};
  } catch {
    return {}; // no state (first sync) or unreadable: every remote file counts as new
  }
}

export function readBase(memdir: string, remote: string): Map<string, string> {
  return new Map(Object.entries(readState(memdir)[remote] ?? {}));
}

/** The sync state file (path under the memory directory, symlinks refused) and its text with `remote`'s entries replaced by `base`. */
export function baseState(memdir: string, remote: string, base: Map<string, string>): { file: string; text: string } {
  const state = readState(memdir);
  state[remote] = Object.fromEntries([...base].sort(([a], [b]) => (a < b ? -1 : 1)));
  return { file: checkStatePath(memdir, statePath(memdir)), text: `${JSON.stringify(state, null, 2)}\n` };
}

export function writeBase(memdir: string, remote: string, base: Map<string, string>): void {
  const { file, text } = baseState(memdir, remote, base);
  writeFileAtomic(file, text);
}

/** Keys of the conflict copies kept under the root's `.conflicts/` (plain files only). */
export function conflictCopies(memdir: string, syncRoot: SyncRoot = TEAM_ROOT): string[] {
  const root = path.join(memdir, syncRoot.dir, CONFLICTS_DIR);
  const keys: string[] = [];
  const walk = (dir: string, prefix: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // none, or unreadable: nothing to tidy
    }
    for (const entry of entries) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.isFile() && !entry.name.startsWith('.')) keys.push(`${prefix}${entry.name}`);
    }
  };
  walk(root, '');
  return keys;
}

/** Remove the conflict copies of `keys` (settled: the file here is the remote's now) in one locked transaction, and the folders left empty. */
export async function removeConflictCopies(memdir: string, keys: string[], syncRoot: SyncRoot = TEAM_ROOT): Promise<void> {
  if (keys.length === 0) return;
  const root = path.join(memdir, syncRoot.dir, CONFLICTS_DIR);
  await withDirLock(memdir, () => {
    commitChanges(
      memdir,
      keys.map((key) => ({ path: shownKey(syncRoot, conflictCopyKey(key)), delete: true as const })),
    );
    for (const key of keys) {
      for (let dir = path.dirname(path.join(root, key)); dir.startsWith(root); dir = path.dirname(dir)) {
        try {
          fs.rmdirSync(dir);
        } catch {
          break; // not empty: another conflict is kept there
        }
      }
    }
  });
}
