import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { unsavedRequests } from '../../src/dream/signal.js';
import { readTranscriptStream } from '../../src/claude-code/read-transcript.js';
import { cleanEnv, memdirBin, runMemdir, type CliResult } from '../helpers/run-cli.js';
import { runMemdirStdinOpen } from '../helpers/run-hostile.js';
import { tempDir } from '../helpers/temp.js';

/** How long a refused or bounded read may take, start-up included (the hang it replaces never ends). */
const QUICK_MS = 6_000;

function workspace() {
  const root = tempDir('memdir-bounded-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  const mem = path.join(root, 'memory');
  for (const dir of [home, project, mem]) fs.mkdirSync(dir);
  return { root, home, project, mem, env: cleanEnv(home) };
}

const oneLine = (r: CliResult) => {
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
};

async function timed<T>(run: () => Promise<T>): Promise<T & { ms: number }> {
  const started = Date.now();
  const result = await run();
  return { ...result, ms: Date.now() - started };
}

describe('extract --from a path that is not a transcript file', () => {
  test.each([
    ['/dev/zero (a character device)', () => '/dev/zero', /is a character device, not a transcript file/],
    [
      'a FIFO nobody writes to',
      (root: string) => {
        const fifo = path.join(root, 'transcript.jsonl');
        execFileSync('mkfifo', [fifo]);
        return fifo;
      },
      /is a named pipe \(FIFO\), not a transcript file/,
    ],
    ['a directory', (root: string) => root, /is a directory, not a transcript file/],
  ])('%s: refused at once, exit 2, one line naming it', async (_, make, problem) => {
    const { root, project, mem, env } = workspace();
    const from = make(root);
    const r = await timed(() => runMemdir(['extract', '--from', from, '--dir', mem, '--engine', 'local'], { cwd: project, env, timeoutMs: QUICK_MS * 2 }));
    expect(r.ms).toBeLessThan(QUICK_MS);
    expect(r.code, r.stderr).toBe(2);
    oneLine(r);
    expect(r.stderr).toContain(from);
    expect(r.stderr).toMatch(problem);
  });
});

describe('the Stop hook naming a transcript_path that is not a file', () => {
  test.each([
    ['/dev/zero', () => '/dev/zero'],
    [
      'a FIFO',
      (root: string) => {
        const fifo = path.join(root, 'session.jsonl');
        execFileSync('mkfifo', [fifo]);
        return fifo;
      },
    ],
  ])('%s: exit 0 with a one-line note, and no run is started', async (_, make) => {
    const { root, project, mem, env } = workspace();
    const transcript = make(root);
    const input = JSON.stringify({ session_id: 's1', hook_event_name: 'Stop', transcript_path: transcript, cwd: project });
    const r = await timed(() => runMemdir(['extract', '--hook', '--dir', mem], { cwd: project, env, input, timeoutMs: QUICK_MS * 2 }));
    expect(r.ms).toBeLessThan(QUICK_MS);
    expect(r.code).toBe(0);
    oneLine(r);
    expect(r.stderr).toMatch(/^memdir extract hook skipped: .*not a transcript file/);
    // A started run would log to .memdir/extract.log (and hold the run lock reading forever).
    expect(fs.existsSync(path.join(mem, '.memdir/extract.log'))).toBe(false);
  });
});

test('a transcript stream is read up to its byte limit, then refused', async () => {
  const line = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(100) } })}\n`;
  const stream = Readable.from(Array.from({ length: 100 }, () => Buffer.from(line)));
  await expect(readTranscriptStream(stream, { maxBytes: 5_000, label: 'big.jsonl' })).rejects.toThrow(/big\.jsonl: larger than .* not a transcript/);
});

test('dream’s gathering skips a FIFO among the transcripts instead of waiting on it', async () => {
  const { root } = workspace();
  const fifo = path.join(root, 'session.jsonl');
  execFileSync('mkfifo', [fifo]);
  const gathered = unsavedRequests([fifo], []);
  const waited = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3_000).unref());
  expect(await Promise.race([gathered, waited])).toEqual([]);
});

/** Run a hook with stdin a blocking pipe (a FIFO) whose writer keeps it open and stays silent. */
function runWithSilentPipe(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; root: string }): Promise<CliResult & { ms: number }> {
  const fifo = path.join(options.root, 'stdin.fifo');
  execFileSync('mkfifo', [fifo]);
  // Read-write: a writer that never blocks the open, so the read end below opens at once, blocking.
  const writer = fs.openSync(fifo, fs.constants.O_RDWR);
  const reader = fs.openSync(fifo, fs.constants.O_RDONLY);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [memdirBin, ...args], { cwd: options.cwd, env: options.env, stdio: [reader, 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      fs.closeSync(reader);
      fs.closeSync(writer);
      resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - started });
    });
  });
}

describe('hooks with CLAUDE_PROJECT_DIR set and stdin open but silent', () => {
  const hooks = [['context'], ['recall'], ['extract'], ['dream'], ['guard']];
  test.each(hooks)('%s --hook, stdin a socket (Node’s child stdio): returns within seconds, exit 0', async (command) => {
    const { project, mem, env } = workspace();
    const r = await timed(() => runMemdirStdinOpen([command, '--hook', '--dir', mem], { cwd: project, env: { ...env, CLAUDE_PROJECT_DIR: project }, input: '' }));
    expect(r.ms).toBeLessThan(QUICK_MS);
    expect(r.code, r.stderr).toBe(0);
  });
  test.each(hooks)('%s --hook, stdin a pipe: returns within seconds, exit 0', async (command) => {
    const { root, project, mem, env } = workspace();
    const r = await runWithSilentPipe([command, '--hook', '--dir', mem], { cwd: project, env: { ...env, CLAUDE_PROJECT_DIR: project }, root });
    expect(r.ms).toBeLessThan(QUICK_MS);
    expect(r.code, r.stderr).toBe(0);
  });
});
