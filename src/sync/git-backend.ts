import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SimpleGit } from 'simple-git';
import { remoteFailure, type PushResult, type RemoteView, type SyncBackend } from './backend.js';
import { fetchArgs, gitEnv, TRANSPORT_ALLOWANCES, TRANSPORT_ENV, trackingRefOf } from './git-env.js';
import { lazyRequire } from '../core/lazy.js';

export interface GitBackendOptions {
  /** The private bare repository (under `<memdir>/.memdir/sync/`). */
  repo: string;
  url: string;
  /** The URL as shown (no credentials). */
  display: string;
  branch: string;
  /** Asked only when there is something to commit (it costs git processes). */
  author: () => Promise<{ name: string; email: string }>;
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

/** One git process fed on stdin (simple-git has no stdin): cat-file --batch and fast-import stream many objects through one process. */
function gitWithInput(repo: string, args: string[], input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: repo, env: gitEnv() });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(stderr.trim() || `git ${args[0]} exited with ${code}`))));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** A path as fast-import reads it: C-style quoted. */
function quotePath(key: string): string {
  return `"${key.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

export async function gitBackend(options: GitBackendOptions): Promise<SyncBackend> {
  const { simpleGit } = lazyRequire<typeof import('simple-git')>('simple-git');
  fs.mkdirSync(options.repo, { recursive: true });
  const git: SimpleGit = simpleGit({ baseDir: options.repo, allowEnvironment: TRANSPORT_ENV, unsafe: TRANSPORT_ALLOWANCES }).env(gitEnv());
  if (!fs.existsSync(path.join(options.repo, 'HEAD'))) await git.raw(['init', '--bare', '--quiet']);
  const trackingRef = trackingRefOf(options.branch);
  const remote = `${options.display} (branch ${options.branch})`;

  return {
    remote,
    retries: 3,
    hash: gitBlobHash,

    async fetch(): Promise<RemoteView> {
      const view: RemoteView = { hashes: new Map(), version: undefined, special: new Map() };
      try {
        await git.raw(fetchArgs(options.url, options.branch));
      } catch (error) {
        if (!/couldn't find remote ref/i.test(errorText(error))) throw remoteFailure(remote, errorText(error).split('\n').pop()!, error);
        await git.raw(['update-ref', '-d', trackingRef]).catch(() => undefined);
        return view; // the branch does not exist yet: the first push creates it
      }
      view.version = (await git.raw(['rev-parse', '--verify', trackingRef])).trim();
      for (const entry of (await git.raw(['ls-tree', '-r', '-z', '--full-tree', trackingRef])).split('\0')) {
        const match = /^(\d+) (\w+) ([0-9a-f]+)\t([\s\S]*)$/.exec(entry);
        if (!match) continue;
        const [, mode, type, id, key] = match as unknown as [string, string, string, string, string];
        if (type === 'blob' && (mode === '100644' || mode === '100755')) view.hashes.set(key, id);
        else view.special.set(key, mode === '120000' ? 'a symlink on the remote' : `a ${type} on the remote, not a file`);
      }
      return view;
    },

    async read(view, keys): Promise<Map<string, Buffer>> {
      const contents = new Map<string, Buffer>();
      if (keys.length === 0) return contents;
      const ids = keys.map((key) => view.hashes.get(key)!);
      const out = await gitWithInput(options.repo, ['cat-file', '--batch'], Buffer.from(`${ids.join('\n')}\n`));
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
      const message = `memdir sync: ${uploads.size + removals.length} team memory file(s)\n\nMemdir-Machine: ${os.hostname()}\n`;
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
      await gitWithInput(options.repo, ['fast-import', '--quiet', '--force'], Buffer.concat(parts));
      try {
        await git.raw(['push', '--quiet', '--no-verify', options.url, `${OUTGOING_REF}:refs/heads/${options.branch}`]);
        return { conflict: false, notTaken: new Map() };
      } catch (error) {
        const text = errorText(error);
        // Someone pushed first (or is pushing right now): refetch and retry.
        if (/\[rejected\]|non-fast-forward|fetch first|cannot lock ref|failed to update ref|incorrect old value/i.test(text)) return { conflict: true, notTaken: new Map() };
        throw remoteFailure(remote, text.split('\n').pop()!, error);
      }
    },
  };
}
