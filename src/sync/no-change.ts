import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STATE_DIR } from '../core/taxonomy.js';
import { cloneArgs, cloneEnv, trackingRefOf, TRANSPORT_ENV } from './git-env.js';
import { isMemdirClone } from './clone.js';
import { networkTimeoutMs } from './network.js';

/*
 * The no-change record: what a plain `memdir sync` (git backend, no flags, no
 * config) saw when it last found nothing to do on either side. The next plain
 * run stats the team files instead of reading and hashing them, and asks the
 * remote for its branch's commit with one `git ls-remote`: when every file's
 * stat, the git configuration the remote URL came from, memdir's own sync
 * state and that commit are as recorded, nothing changed, and it says so
 * without the CLI (src/sync/fast.ts). Anything else — a file edited (even with
 * the same size and mtime: the ctime moves), touched, added or deleted, the
 * remote moved, git failing — is the full sync, which records again when it
 * finds nothing to do.
 */

/** memdir's own sync state: the private clone and what was last synced. */
export const SYNC_STATE_DIR = path.join(STATE_DIR, 'sync');
export const NO_CHANGE_FILE = 'no-change.json';
/** Files changed this close before the record could change again within the same timestamp: not trusted (git's racy-clean rule). */
const RACY_MS = 2_000;

/** Per team entry (files, folders, links, anything): size, mtime, ctime, inode. */
export type TeamManifest = Record<string, [number, number, number, number]>;

export interface NoChangeRecord {
  memdir: string;
  /** Where the command ran: its repository's `origin` is the remote. */
  cwd: string;
  /** The stat of every file the remote URL may come from, and of memdir's own sync state. */
  fingerprint: Array<[string, number, number] | [string, null]>;
  url: string;
  remote: string;
  branch: string;
  commit: string;
  files: number;
  manifest: TeamManifest;
  recordedAt: number;
}

export function recordPath(memdir: string): string {
  return path.join(memdir, SYNC_STATE_DIR, NO_CHANGE_FILE);
}

/** lstat of everything under `team/` (path key → size, mtime, ctime, inode); undefined when there is no team folder. */
export function teamManifest(memdir: string): TeamManifest | undefined {
  const manifest: TeamManifest = {};
  const walk = (dir: string, prefix: string): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const entry of entries) {
      const key = prefix + entry.name;
      const full = `${dir}${path.sep}${entry.name}`;
      const stat = fs.lstatSync(full, { throwIfNoEntry: false });
      if (!stat) return false;
      manifest[key] = [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino];
      if (entry.isDirectory() && !walk(full, `${key}/`)) return false;
    }
    return true;
  };
  return walk(path.join(memdir, 'team'), '') ? manifest : undefined;
}

export function sameManifest(a: TeamManifest, b: TeamManifest): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] !== undefined && a[key]!.every((value, i) => value === b[key]![i]));
}

/** The `.git` folder of the repository holding `cwd` (a linked worktree's `.git` file is not followed: undefined). */
function gitDirOf(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.git');
    const stat = fs.statSync(candidate, { throwIfNoEntry: false });
    if (stat) return stat.isDirectory() ? candidate : undefined;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The files whose stat must not move for the recorded URL to hold: the repository's git config,
 * the global and system ones, and memdir's sync state. Undefined where a config includes others,
 * or git variables would point it elsewhere (the full sync judges those).
 */
export function fingerprintOf(memdir: string, cwd: string, env: NodeJS.ProcessEnv = process.env): NoChangeRecord['fingerprint'] | undefined {
  if (Object.keys(env).some((key) => /^git_/i.test(key) && !TRANSPORT_ENV.includes(key))) return undefined;
  const gitDir = gitDirOf(cwd);
  if (!gitDir) return undefined;
  const home = env.HOME ?? os.homedir();
  const configs = [
    path.join(gitDir, 'config'),
    env.GIT_CONFIG_GLOBAL ?? path.join(home, '.gitconfig'),
    path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'git', 'config'),
    '/etc/gitconfig',
  ];
  const fingerprint: NoChangeRecord['fingerprint'] = [];
  for (const file of configs) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      fingerprint.push([file, null]);
      continue;
    }
    if (/^\s*\[\s*include/im.test(text)) return undefined;
    const stat = fs.statSync(file);
    fingerprint.push([file, stat.mtimeMs, stat.size]);
  }
  for (const file of [path.join(memdir, SYNC_STATE_DIR, 'state.json')]) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    fingerprint.push(stat ? [file, stat.mtimeMs, stat.size] : [file, null]);
  }
  return fingerprint;
}

/** The commit of the remote branch the private clone last fetched (loose or packed ref), if any. */
export function trackedCommit(repo: string, branch: string): string | undefined {
  const ref = trackingRefOf(branch);
  try {
    return fs.readFileSync(path.join(repo, ref), 'utf8').trim();
  } catch {
    try {
      const line = fs
        .readFileSync(path.join(repo, 'packed-refs'), 'utf8')
        .split('\n')
        .find((l) => l.endsWith(` ${ref}`));
      return line?.split(' ')[0];
    } catch {
      return undefined;
    }
  }
}

export function privateRepo(memdir: string): string {
  return path.join(memdir, SYNC_STATE_DIR, 'git');
}

export function readNoChangeRecord(memdir: string): NoChangeRecord | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(recordPath(memdir), 'utf8')) as NoChangeRecord;
    return record && typeof record.commit === 'string' && record.manifest && typeof record.manifest === 'object' ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the local side is as recorded: same cwd, same fingerprint, same team entries, none changed near the record. */
export function localUnchanged(record: NoChangeRecord, memdir: string, cwd: string): boolean {
  if (record.memdir !== memdir || record.cwd !== cwd) return false;
  if (JSON.stringify(fingerprintOf(memdir, cwd)) !== JSON.stringify(record.fingerprint)) return false;
  const manifest = teamManifest(memdir);
  if (!manifest || !sameManifest(manifest, record.manifest)) return false;
  return Object.values(manifest).every(([, mtime, ctime]) => Math.max(mtime, ctime) < record.recordedAt - RACY_MS);
}

/** The remote branch's commit now, by one `git ls-remote` (half the cost of a fetch, and it writes nothing); undefined on any failure, or after the network timeout. */
export function remoteCommit(memdir: string, url: string, branch: string): Promise<string | undefined> {
  const repo = privateRepo(memdir);
  // git would read the clone's config: one that is not memdir's is for the full sync to replace.
  if (!isMemdirClone(repo)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const ref = `refs/heads/${branch}`;
    const child = spawn('git', cloneArgs(['ls-remote', '--', url, ref]), { cwd: repo, env: cloneEnv(repo), stdio: ['ignore', 'pipe', 'ignore'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      child.stdout.destroy();
      resolve(undefined);
    }, networkTimeoutMs());
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(
        code === 0
          ? out
              .split('\n')
              .find((line) => line.endsWith(`\t${ref}`))
              ?.split('\t')[0]
          : undefined,
      );
    });
  });
}
