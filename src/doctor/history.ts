/**
 * What a gone project's sessions recorded of its git history, and whether a repository has it. Claude
 * Code records no remote URL anywhere under its config folder (checked with 2.1.197 and the latest
 * release 2.1.332). The latest release records, in each transcript's `session_context`, the session's
 * git status with its "Recent commits" (short hashes; in a young repository, the first commit too);
 * 2.1.197 records none. A repository
 * that has one of those commits has the project's history: it is the project, moved or cloned again.
 * Read from `.git` on disk (loose objects and pack indexes), no git process.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Bytes read from the top of a transcript for its git status, and transcripts read per folder. */
const STATUS_READ_MAX = 256 * 1024;
const TRANSCRIPTS_READ = 20;
const RECENT_COMMITS = Buffer.from('Recent commits:');

/** The commits (short hashes, newest first) the sessions of a folder recorded in their git status; bounded. */
export function recordedCommits(folder: string, sessions: readonly string[]): string[] {
  const found = new Set<string>();
  const buffer = Buffer.allocUnsafe(STATUS_READ_MAX);
  for (const session of sessions.slice(0, TRANSCRIPTS_READ)) {
    let length: number;
    try {
      const fd = fs.openSync(path.join(folder, `${session}.jsonl`), 'r');
      try {
        length = fs.readSync(fd, buffer, 0, STATUS_READ_MAX, 0);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      continue;
    }
    // Searched in the bytes: only the list itself is decoded (most transcripts hold none).
    const at = buffer.subarray(0, length).indexOf(RECENT_COMMITS);
    if (at < 0) continue;
    const list = buffer.toString('utf8', at + RECENT_COMMITS.length, Math.min(length, at + RECENT_COMMITS.length + 4096));
    // Inside a JSON string: lines are `\n` escapes. The list ends at the first line that is not `<hash> <subject>`.
    for (const line of list.split('\\n').slice(1)) {
      const hash = /^([0-9a-f]{7,40}) /.exec(line)?.[1];
      if (!hash) break;
      found.add(hash);
    }
  }
  return [...found];
}

/** The objects folder of the repository at `root` (a linked worktree's is its main repository's). */
function objectsDir(root: string): string | undefined {
  const dotGit = path.join(root, '.git');
  try {
    if (fs.statSync(dotGit).isDirectory()) return path.join(dotGit, 'objects');
    const gitDir = path.resolve(
      root,
      fs
        .readFileSync(dotGit, 'utf8')
        .trim()
        .replace(/^gitdir:\s*/, ''),
    );
    const common = path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
    return path.join(common, 'objects');
  } catch {
    return undefined;
  }
}

/** Whether the pack index `file` (version 2) names an object starting with `prefix` (lower-case hex). */
function packHas(file: string, prefix: string): boolean {
  let index: Buffer;
  try {
    index = fs.readFileSync(file);
  } catch {
    return false;
  }
  if (index.length < 8 + 256 * 4 || index.readUInt32BE(0) !== 0xff744f63 || index.readUInt32BE(4) !== 2) return false;
  const first = Number.parseInt(prefix.slice(0, 2), 16);
  const start = first === 0 ? 0 : index.readUInt32BE(8 + (first - 1) * 4);
  const end = index.readUInt32BE(8 + first * 4);
  const names = 8 + 256 * 4;
  // The names are sorted: binary search for the first one not below the prefix.
  let low = start;
  let high = end;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (index.toString('hex', names + mid * 20, names + mid * 20 + 20) < prefix) low = mid + 1;
    else high = mid;
  }
  return low < end && index.toString('hex', names + low * 20, names + low * 20 + 20).startsWith(prefix);
}

/** Whether the repository at `root` has an object whose name starts with `hash`. */
export function hasObject(root: string, hash: string): boolean {
  const objects = objectsDir(root);
  if (!objects || !/^[0-9a-f]{4,40}$/.test(hash)) return false;
  try {
    if (fs.readdirSync(path.join(objects, hash.slice(0, 2))).some((name) => name.startsWith(hash.slice(2)))) return true;
  } catch {
    // no loose objects of that fan-out
  }
  let packs: string[] = [];
  try {
    packs = fs.readdirSync(path.join(objects, 'pack')).filter((name) => name.endsWith('.idx'));
  } catch {
    return false;
  }
  return packs.some((name) => packHas(path.join(objects, 'pack', name), hash));
}
