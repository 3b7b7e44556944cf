import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, test } from 'vitest';
import { isInitConfig } from '../../src/sync/clone.js';
import { gitReason } from '../../src/sync/git-backend.js';
import { memdirBin } from '../helpers/run-cli.js';
import { pushRawTree, teamSetup, topic, writeTeam } from '../helpers/team-sync.js';

/** The network timeout the tests give sync: a silent remote costs seconds, not the default half minute. */
const TIMEOUT_MS = 1_500;
const json = (stdout: string) => JSON.parse(stdout) as { files: Array<{ file: string; status: string; reason?: string }>; summary: Record<string, number> };

/** A server that accepts connections and never answers (a stuck proxy, a half-dead host). */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

/** A hook that leaves a file behind when git runs it. */
function plantHook(hooksDir: string, canary: string): void {
  fs.mkdirSync(hooksDir, { recursive: true });
  const hook = path.join(hooksDir, 'reference-transaction');
  fs.writeFileSync(hook, `#!/bin/sh\ntouch '${canary}'\n`);
  fs.chmodSync(hook, 0o755);
}

describe('a repository planted at .memdir/sync/git', () => {
  test('a non-bare repository with a hook: moved aside (and said so), its hook never runs, sync works', async () => {
    const { clones, sync, root } = await teamSetup(['a']);
    const a = clones.a!;
    writeTeam(a, { 'project_x.md': topic('X', 'x body') });
    const planted = path.join(a.mem, '.memdir/sync/git');
    spawnSync('git', ['init', '--quiet', planted]);
    const canary = path.join(root, 'canary');
    plantHook(path.join(planted, '.git/hooks'), canary);
    const result = await sync(a, ['--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(fs.existsSync(canary)).toBe(false);
    expect(result.stderr).toMatch(/was not memdir's sync clone.*moved it to/);
    expect(json(result.stdout).summary.pushed).toBeGreaterThan(0);
  });

  test('a bare repository with a hook and a credential helper in its config: replaced; a bare one as git init makes it: its hook still never runs', async () => {
    const { clones, sync, root } = await teamSetup(['a']);
    const a = clones.a!;
    writeTeam(a, { 'project_x.md': topic('X', 'x body') });
    const planted = path.join(a.mem, '.memdir/sync/git');
    const canary = path.join(root, 'canary');
    spawnSync('git', ['init', '--bare', '--quiet', planted]);
    plantHook(path.join(planted, 'hooks'), canary);
    fs.appendFileSync(path.join(planted, 'config'), `[credential]\n\thelper = "!touch '${canary}'"\n`);
    const first = await sync(a);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/moved it to/);
    expect(fs.existsSync(canary)).toBe(false);
    // memdir's own clone, with a hook planted in it afterwards: kept, and the hook is not run.
    plantHook(path.join(planted, 'hooks'), canary);
    writeTeam(a, { 'project_y.md': topic('Y', 'y body') });
    const second = await sync(a);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/moved it to/);
    expect(fs.existsSync(canary)).toBe(false);
  });

  test('only the config git init writes counts as memdir’s', () => {
    expect(isInitConfig('[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n')).toBe(true);
    expect(isInitConfig('[core]\n\trepositoryformatversion = 0\n\tbare = true\n\tignorecase = true\n\tprecomposeunicode = true\n')).toBe(true);
    expect(isInitConfig('[core]\n\tbare = true\n\tsshCommand = touch /tmp/x\n')).toBe(false);
    expect(isInitConfig('[core]\n\tbare = true\n[include]\n\tpath = /tmp/evil\n')).toBe(false);
    expect(isInitConfig('[core]\n\tbare = false\n')).toBe(false);
    expect(isInitConfig('[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = sha256\n')).toBe(false);
  });
});

describe('a remote that accepts and never answers', () => {
  test('git over http: sync ends with exit 2 within its timeout, naming the remote', async () => {
    const server = await silentServer();
    closeServer = server.close;
    const { clones, sync } = await teamSetup(['a']);
    const a = clones.a!;
    const url = `http://127.0.0.1:${server.port}/team.git`;
    await simpleGit(a.repo).remote(['set-url', 'origin', url]);
    writeTeam(a, { 'project_x.md': topic('X', 'x body') });
    const started = Date.now();
    const result = await sync(a, [], { MEMDIR_NETWORK_TIMEOUT_MS: String(TIMEOUT_MS) });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 8_000);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`"origin" ${url}`);
    expect(result.stderr).toMatch(/no answer within 1\.5 s/);
  });

  test('the HTTP backend: exit 2 within its timeout (not after four), naming the remote', async () => {
    const server = await silentServer();
    closeServer = server.close;
    const { clones, sync } = await teamSetup(['a']);
    const a = clones.a!;
    writeTeam(a, { 'project_x.md': topic('X', 'x body') });
    const started = Date.now();
    const result = await sync(a, ['--backend', 'http', '--url', `http://127.0.0.1:${server.port}`, '--repo', 'acme/w'], { MEMDIR_NETWORK_TIMEOUT_MS: String(TIMEOUT_MS), MEMDIR_SYNC_BACKOFF_MS: '5' });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 5_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`http://127.0.0.1:${server.port} (repo acme/w)`);
    expect(result.stderr).toMatch(/no answer within 1\.5 s/);
  });
});

describe('an HTTP server that answers without end', () => {
  test('the answer is read up to its limit, then sync ends with exit 2 naming the remote', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"entryChecksums":{"a.md":"');
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeServer = () => new Promise((resolve) => server.close(() => resolve()).closeAllConnections());
    const { port } = server.address() as net.AddressInfo;
    const { clones, sync } = await teamSetup(['a']);
    const started = Date.now();
    const result = await sync(clones.a!, ['--backend', 'http', '--url', `http://127.0.0.1:${port}`, '--repo', 'acme/w'], { MEMDIR_NETWORK_TIMEOUT_MS: '20000' });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`http://127.0.0.1:${port} (repo acme/w)`);
    expect(result.stderr).toMatch(/larger than 64 MB/);
  });
});

/** Run the built CLI, sampling its peak resident memory (VmHWM) while it runs. */
function runSampled(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string; peakBytes: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [memdirBin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakBytes = 0;
    const sample = setInterval(() => {
      const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, { encoding: 'utf8', flag: 'r' }))?.[1];
      if (kb) peakBytes = Math.max(peakBytes, Number(kb) * 1024);
    }, 10);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('exit', () => clearInterval(sample));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, peakBytes }));
  });
}

describe('a large blob on the team branch', () => {
  test('skipped and reported from its size, never read into memory, the rest pulled, no stack trace, every time', async () => {
    const { clones, env, remote } = await teamSetup(['a']);
    const a = clones.a!;
    const blobBytes = 96 * 1024 * 1024;
    pushRawTree(remote, [
      { path: 'project_ok.md', content: topic('Ok', 'ok body') },
      { path: 'project_big.md', content: `${topic('Big', '')}${'x'.repeat(blobBytes)}\n` },
    ]);
    for (let run = 0; run < 2; run++) {
      const result = await runSampled(['sync', '--dir', a.mem, '--json'], a.repo, env());
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/RangeError|\n\s+at /);
      // Reading the blob would hold it (and its copy) whole: the whole process stays well under its size.
      expect(result.peakBytes).toBeLessThan(blobBytes);
      const files = json(result.stdout).files;
      expect(files.find((f) => f.file === 'project_big.md')).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/100,663,\d{3} bytes, over the 1 MB limit/) });
      expect(fs.existsSync(path.join(a.team, 'project_big.md'))).toBe(false);
      expect(fs.readFileSync(path.join(a.team, 'project_ok.md'), 'utf8')).toContain('ok body');
    }
  });
});

describe('syncs of one memory directory at once', () => {
  test('four concurrent syncs all end 0 (one after another, not on each other’s ref locks)', async () => {
    const { clones, sync, remoteFiles } = await teamSetup(['a']);
    const a = clones.a!;
    writeTeam(a, { 'project_x.md': topic('X', 'x body'), 'project_y.md': topic('Y', 'y body') });
    const results = await Promise.all([0, 1, 2, 3].map(() => sync(a)));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(Object.keys(await remoteFiles()).sort()).toEqual(['project_x.md', 'project_y.md']);
  });
});

describe('an unreachable remote', () => {
  test('the one-line error names the remote and says what failed (git’s reason, not its advice)', async () => {
    const { clones, sync, root } = await teamSetup(['a']);
    const a = clones.a!;
    const gone = path.join(root, 'gone.git');
    await simpleGit(a.repo).remote(['set-url', 'origin', gone]);
    const result = await sync(a);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`"origin" ${gone} (branch memdir/team): cannot fetch:`);
    expect(lines[0]).toMatch(/does not appear to be a git repository/);
    expect(lines[0]).not.toMatch(/repository exists/);
  });

  test.each([
    [
      'ssh',
      'ssh: Could not resolve hostname nohost: Name or service not known\r\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.',
      'ssh: Could not resolve hostname nohost: Name or service not known',
    ],
    ['https', "fatal: unable to access 'https://nohost/x.git/': Could not resolve host: nohost", "unable to access 'https://nohost/x.git/': Could not resolve host: nohost"],
    [
      'a refused push',
      "To /srv/team.git\n ! [remote rejected] refs/memdir/outgoing -> memdir/team (pre-receive hook declined)\nerror: failed to push some refs to '/srv/team.git'",
      '! [remote rejected] refs/memdir/outgoing -> memdir/team (pre-receive hook declined)',
    ],
  ])('git’s reason over %s is its first line', (_, stderr, reason) => expect(gitReason(stderr)).toBe(reason));
});
