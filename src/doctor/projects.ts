import fs from 'node:fs';
import path from 'node:path';
import { INDEX_FILE } from '../core/taxonomy.js';
import { readText } from './loads.js';
import { canonicalRoot, findGitRoot } from '../store/git-root.js';

/** Bytes read from the top of a transcript to find its working directory: the first user line carries it. */
const CWD_READ_CHUNK = 16 * 1024;
const CWD_READ_MAX = 256 * 1024;
/** Bytes read from the top of a memory file to find the session that wrote it. */
const HEAD_BYTES = 4096;
/** Transcripts read per folder: enough to see every project that wrote there, bounded on a huge history. */
const TRANSCRIPTS_PER_FOLDER = 2000;

const CWD_FIELD = /"cwd":("(?:[^"\\]|\\.)*")/;
const GIT_BRANCH = /"gitBranch":("(?:[^"\\]|\\.)*")/;
/** Top level, or under `metadata:` as Claude Code writes it (2.1.197 and later nest its fields there). */
const ORIGIN_SESSION = /^(?:[ \t]+)?originSessionId:[ \t]*["']?([\w-]+)/m;
const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

/** One folder under `<config home>/projects/`: the working directories its sessions recorded, and its memories. */
export interface ProjectFolder {
  name: string;
  path: string;
  memoryDir: string;
  /** Each recorded working directory and the sessions (transcript names) that recorded it. */
  cwds: Map<string, string[]>;
  /** The git branches the sessions of each working directory were on. */
  branches: Map<string, Set<string>>;
  transcripts: number;
  /** Topic files (`*.md` but the index) at the top of memory/. */
  memories: string[];
  hasIndex: boolean;
}

/** A working directory as a project: its canonical root (git, else itself), whether it still exists, its remote. */
export interface ProjectIdentity {
  exists: boolean;
  root: string;
  remote: string | undefined;
}

/** Every folder under `projectsDir`, with what its transcripts recorded and what memory it holds. */
export function readProjectFolders(projectsDir: string): ProjectFolder[] {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(projectsDir, { withFileTypes: true });
  } catch {
    return [];
  }
  const buffer = Buffer.allocUnsafe(CWD_READ_CHUNK);
  return names
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => readFolder(path.join(projectsDir, name), name, buffer));
}

function readFolder(folder: string, name: string, buffer: Buffer): ProjectFolder {
  const cwds = new Map<string, string[]>();
  const branches = new Map<string, Set<string>>();
  let transcripts = 0;
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(folder);
  } catch {
    // unreadable: reported as a folder with nothing recorded
  }
  for (const entry of entries
    .filter((e) => e.endsWith('.jsonl'))
    .sort()
    .slice(0, TRANSCRIPTS_PER_FOLDER)) {
    transcripts++;
    const recorded = recordedCwd(path.join(folder, entry), buffer);
    if (recorded === undefined) continue;
    const { cwd, branch } = recorded;
    if (branch) branches.set(cwd, (branches.get(cwd) ?? new Set()).add(branch));
    const sessions = cwds.get(cwd) ?? [];
    sessions.push(entry.slice(0, -'.jsonl'.length));
    cwds.set(cwd, sessions);
  }
  const memoryDir = path.join(folder, 'memory');
  let files: string[] = [];
  try {
    files = fs.readdirSync(memoryDir).filter((f) => f.endsWith('.md'));
  } catch {
    // no memory here
  }
  return { name, path: folder, memoryDir, cwds, branches, transcripts, memories: files.filter((f) => f !== INDEX_FILE).sort(), hasIndex: files.includes(INDEX_FILE) };
}

/** The first `cwd` a transcript records (and the git branch on that line), reading its top only. */
export function recordedCwd(file: string, buffer: Buffer): { cwd: string; branch: string | undefined } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    let text = '';
    for (let offset = 0; offset < CWD_READ_MAX; offset += CWD_READ_CHUNK) {
      const read = fs.readSync(fd, buffer, 0, CWD_READ_CHUNK, offset);
      if (read <= 0) break;
      // A field split between two chunks is found in the next pass: keep a tail.
      text = text.slice(-4096) + buffer.toString('utf8', 0, read);
      const match = CWD_FIELD.exec(text);
      if (match) {
        try {
          const cwd = JSON.parse(match[1]!) as string;
          const line = text.slice(match.index).split('\n', 1)[0]!;
          const branch = GIT_BRANCH.exec(line)?.[1];
          return cwd ? { cwd: cwd.normalize('NFC'), branch: branch ? (JSON.parse(branch) as string) : undefined } : undefined;
        } catch {
          return undefined;
        }
      }
    }
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** The session a memory file says wrote it (`originSessionId` in its frontmatter, or in its `metadata:`). */
export function originSession(file: string): string | undefined {
  const frontmatter = FRONTMATTER.exec(readText(file, HEAD_BYTES) ?? '')?.[1];
  return frontmatter === undefined ? undefined : ORIGIN_SESSION.exec(frontmatter)?.[1];
}

/** What project a working directory belongs to; cached, since many sessions share one. */
export function identities(): (cwd: string) => ProjectIdentity {
  const cache = new Map<string, ProjectIdentity>();
  return (cwd) => {
    let known = cache.get(cwd);
    if (!known) {
      known = identify(cwd);
      cache.set(cwd, known);
    }
    return known;
  };
}

function identify(cwd: string): ProjectIdentity {
  if (!fs.existsSync(cwd)) return { exists: false, root: cwd, remote: undefined };
  const gitRoot = findGitRoot(cwd);
  if (!gitRoot) return { exists: true, root: cwd, remote: undefined };
  const root = canonicalRoot(gitRoot);
  return { exists: true, root, remote: remoteUrl(root) };
}

/** `remote.origin.url` from the repository's own config file (no git process). */
export function remoteUrl(root: string): string | undefined {
  let config: string;
  try {
    config = fs.readFileSync(path.join(root, '.git', 'config'), 'utf8');
  } catch {
    return undefined;
  }
  let inOrigin = false;
  for (const line of config.split('\n')) {
    const section = /^\s*\[\s*([^\]]+)\]/.exec(line);
    if (section) {
      inOrigin = /^remote\s+"origin"$/.test(section[1]!.trim());
      continue;
    }
    const url = inOrigin ? /^\s*url\s*=\s*(.+?)\s*$/.exec(line) : null;
    if (url) return normalizeRemote(url[1]!);
  }
  return undefined;
}

/** One remote written two ways (`git@host:o/r.git`, `https://host/o/r`) is the same repository. */
function normalizeRemote(url: string): string {
  const scp = /^[\w.-]+@([^:/]+):(.+)$/.exec(url);
  const plain = scp ? `${scp[1]}/${scp[2]}` : url.replace(/^[a-z+]+:\/\/([^@/]*@)?/i, '');
  return plain
    .replace(/\.git$/, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}
