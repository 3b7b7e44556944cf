import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SimpleGit } from 'simple-git';
import { remoteFailure, type PushResult, type RemoteView, type SyncBackend } from './backend.js';
import { cloneArgs, cloneConfig, cloneEnv, fetchArgs, TRANSPORT_ALLOWANCES, TRANSPORT_ENV, trackingRefOf } from './git-env.js';
import { isMemdirClone } from './clone.js';
import { networkTimeoutMs } from './network.js';
import { lazyRequire } from '../core/lazy.js';
import { MAX_TOPIC_FILE_BYTES } from '../core/limits.js';
import { messages } from '../core/messages.js';

export interface GitBackendOptions {
  /** The private bare repository (under `<memdir>/.memdir/sync/`). */
  repo: string;
  url: string;
  /** The URL as shown (no credentials). */
  display: string;
  branch: string;
  /** The remote's name in the project's repository (`origin`), when it was given by name. */
  name?: string | undefined;
  /** Asked only when there is something to commit (it costs git processes). */
  author: () => Promise<{ name: string; email: string }>;
  /** A warning on stderr (a clone that was not memdir's, moved aside). */
  warn: (text: string) => void;
  /** What the commits carry, in their message (default: team memory). */
  what?: string | undefined;
}

const OUTGOING_REF = 'refs/memdir/outgoing';
/** git's own blob id of `content`: comparing by it needs no blob read from the remote side. */
export function gitBlobHash(content: string | Buffer): string {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return crypto.createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim();
}

/** git stopped by the watchdog: the remote did not answer in time. */
class GitTimeout extends Error {}

/**
 * One git process on the private clone, without simple-git: cat-file --batch and fast-import take
 * many objects through stdin, and a network command needs a watchdog that gives up on it at once
 * (git's remote helper, which may hold its output open, dies by git's own low-speed limit).
 */
function runGit(repo: string, args: string[], options: { input?: Buffer; timeoutMs?: number } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', cloneArgs(args), { cwd: repo, env: cloneEnv(repo) });
    const chunks: Buffer[] = [];
    let stderr = '';
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill('SIGKILL');
            child.stdout.destroy();
            child.stderr.destroy();
            reject(new GitTimeout());
          }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new Error(stderr.trim() || `git ${args[0]} exited with ${code}`));
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input);
  });
}

/**
 * What git said went wrong: its first line (an ssh or curl error, the remote's own word, the
 * rejected ref), not its last, which is advice ("…and the repository exists."); the `To <url>`
 * header and hints are skipped.
 */
export function gitReason(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^(To |hint:)/.test(line));
  return (lines[0] ?? '').replace(/^(fatal|error):\s*/i, '');
}

/** A path as fast-import reads it: C-style quoted. */
function quotePath(key: string): string {
  return `"${key.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** The private clone as memdir made it; anything else found there is moved aside (and said so) and a fresh one made. */
async function openClone(repo: string, warn: (text: string) => void): Promise<SimpleGit> {
  if (fs.lstatSync(repo, { throwIfNoEntry: false }) && !isMemdirClone(repo)) {
    const aside = `${repo}.not-memdir-${Date.now()}`;
    fs.renameSync(repo, aside);
    warn(messages.syncCloneMovedAside(repo, aside));
  }
  fs.mkdirSync(repo, { recursive: true });
  const { simpleGit } = lazyRequire<typeof import('simple-git')>('simple-git');
  const git: SimpleGit = simpleGit({
    baseDir: repo,
    config: cloneConfig(),
    allowEnvironment: [...TRANSPORT_ENV, 'GIT_DIR'],
    unsafe: { ...TRANSPORT_ALLOWANCES, allowUnsafeHooksPath: true, allowUnsafeFsMonitor: true },
  }).env(cloneEnv(repo));
  if (!fs.existsSync(path.join(repo, 'HEAD'))) await git.raw(['init', '--bare', '--quiet']);
  return git;
}

export async function gitBackend(options: GitBackendOptions): Promise<SyncBackend> {
  const git = await openClone(options.repo, options.warn);
  const trackingRef = trackingRefOf(options.branch);
  const remote = `${options.display} (branch ${options.branch})`;
  /** The remote in errors: with the name it was given by, when it had one. */
  const label = options.name ? `"${options.name}" ${remote}` : remote;
  const timeoutMs = networkTimeoutMs();
  const failure = (what: string, error: unknown) => remoteFailure(label, error instanceof GitTimeout ? messages.syncNoAnswer(timeoutMs) : `${what}: ${gitReason(errorText(error))}`, error);

  return {
    remote,
    retries: 3,
    hash: gitBlobHash,

    async fetch(): Promise<RemoteView> {
      const view: RemoteView = { hashes: new Map(), version: undefined, special: new Map() };
      try {
        await runGit(options.repo, fetchArgs(options.url, options.branch), { timeoutMs });
      } catch (error) {
        if (error instanceof GitTimeout || !/couldn't find remote ref/i.test(errorText(error))) throw failure(messages.syncFetchFailed(), error);
        await git.raw(['update-ref', '-d', trackingRef]).catch(() => undefined);
        return view; // the branch does not exist yet: the first push creates it
      }
      view.version = (await git.raw(['rev-parse', '--verify', trackingRef])).trim();
      // Sizes come with the listing: a blob too large to be a memory is never read (it could be gigabytes).
      for (const entry of (await git.raw(['ls-tree', '-r', '-z', '-l', '--full-tree', trackingRef])).split('\0')) {
        const match = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t([\s\S]*)$/.exec(entry);
        if (!match) continue;
        const [, mode, type, id, size, key] = match as unknown as [string, string, string, string, string, string];
        if (type === 'blob' && (mode === '100644' || mode === '100755')) {
          if (Number(size) > MAX_TOPIC_FILE_BYTES) view.special.set(key, messages.syncPulledInvalid(messages.topicTooLarge(Number(size), MAX_TOPIC_FILE_BYTES)));
          else view.hashes.set(key, id);
        } else view.special.set(key, mode === '120000' ? 'a symlink on the remote' : `a ${type} on the remote, not a file`);
      }
      return view;
    },

    async read(view, keys): Promise<Map<string, Buffer>> {
      const contents = new Map<string, Buffer>();
      if (keys.length === 0) return contents;
      const ids = keys.map((key) => view.hashes.get(key)!);
      const out = await runGit(options.repo, ['cat-file', '--batch'], { input: Buffer.from(`${ids.join('\n')}\n`) });
      let at = 0;
      for (const key of keys) {
        const headerEnd = out.indexOf(0x0a, at);
        const size = Number(out.subarray(at, headerEnd).toString().split(' ')[2]);
        contents.set(key, out.subarray(headerEnd + 1, headerEnd + 1 + size));
        at = headerEnd + 1 + size + 1;
      }
      return contents;
    },

    async push(view, uploads, removals): Promise<PushResult> {
      const { name, email } = await options.author();
      const when = `${Math.floor(Date.now() / 1000)} +0000`;
      const message = `memdir sync: ${uploads.size + removals.length} ${options.what ?? 'team memory'} file(s)\n\nMemdir-Machine: ${os.hostname()}\n`;
      const parts: Buffer[] = [
        Buffer.from(`reset ${OUTGOING_REF}\ncommit ${OUTGOING_REF}\nauthor ${name} <${email}> ${when}\ncommitter ${name} <${email}> ${when}\ndata ${Buffer.byteLength(message)}\n${message}`),
      ];
      if (view.version) parts.push(Buffer.from(`from ${view.version}\n`));
      for (const [key, content] of uploads) {
        const bytes = Buffer.from(content);
        parts.push(Buffer.from(`M 100644 inline ${quotePath(key)}\ndata ${bytes.length}\n`), bytes, Buffer.from('\n'));
      }
      for (const key of removals) parts.push(Buffer.from(`D ${quotePath(key)}\n`));
      parts.push(Buffer.from('\n'));
      await runGit(options.repo, ['fast-import', '--quiet', '--force'], { input: Buffer.concat(parts) });
      try {
        await runGit(options.repo, ['push', '--quiet', '--no-verify', options.url, `${OUTGOING_REF}:refs/heads/${options.branch}`], { timeoutMs });
        return { conflict: false, notTaken: new Map() };
      } catch (error) {
        // Someone pushed first (or is pushing right now): refetch and retry.
        if (!(error instanceof GitTimeout) && /\[rejected\]|non-fast-forward|fetch first|cannot lock ref|failed to update ref|incorrect old value/i.test(errorText(error)))
          return { conflict: true, notTaken: new Map() };
        throw failure(messages.syncPushFailed(), error);
      }
    },
  };
}
