import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { waitForDetachedExtracts } from '../helpers/claude.js';
import { cleanEnv, memdirBin, runMemdir } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The Stop hook (`memdir extract --hook`) answers Claude Code at once and extracts in a detached
 * run. These are the ways a loaded machine or Claude Code itself could lose that run's memory.
 */

const REMEMBER = 'remember: the deploy window is Tuesdays at 14:00 UTC';

const line = (type: 'user' | 'assistant', uuid: string, text: string, parentUuid: string | null) =>
  JSON.stringify({
    type,
    uuid,
    parentUuid,
    sessionId: 'sess-1',
    timestamp: '2026-11-30T10:00:00Z',
    message: type === 'user' ? { role: 'user', content: text } : { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'text', text }] },
  });

function workspace() {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  const transcript = path.join(root, 'sess-1.jsonl');
  const input = JSON.stringify({ session_id: 'sess-1', transcript_path: transcript, cwd: root, hook_event_name: 'Stop' });
  return { root, dir, transcript, input, env: cleanEnv(path.join(root, 'home')) };
}

const memories = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'MEMORY.md' && !f.startsWith('.')) : []);

test('the detached run outlives its hook: killing the hook process group the moment it answers does not stop the extraction', async () => {
  const { root, dir, transcript, input, env } = workspace();
  fs.writeFileSync(transcript, `${line('user', 'u1', REMEMBER, null)}\n${line('assistant', 'a1', 'Noted.', 'u1')}\n`);
  // As Claude Code runs a hook: a shell in its own session. The shell stays alive after memdir
  // answers, so the group can be killed as a whole, as a runner that cleans up its hooks' trees would.
  const hook = spawn('/bin/sh', ['-c', `"${process.execPath}" "${memdirBin}" extract --hook --dir "${dir}" --engine local; echo answered; exec sleep 60`], { cwd: root, env, detached: true });
  hook.stdin.end(input);
  await new Promise<void>((resolve) => hook.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('answered') && resolve()));
  process.kill(-hook.pid!, 'SIGKILL');
  await waitForDetachedExtracts(dir);
  expect(memories(dir)).toHaveLength(1);
});

test('a last line still being written when the run reads the transcript is not lost: the next Stop takes it', async () => {
  const { root, dir, transcript, input, env } = workspace();
  const last = line('user', 'u2', REMEMBER, 'a1');
  const cut = Math.floor(last.length / 2);
  fs.writeFileSync(transcript, `${line('user', 'u1', 'hello', null)}\n${line('assistant', 'a1', 'Hi.', 'u1')}\n${last.slice(0, cut)}`);
  const stop = () => runMemdir(['extract', '--hook', '--dir', dir, '--engine', 'local'], { cwd: root, env, input });
  expect((await stop()).code).toBe(0);
  await waitForDetachedExtracts(dir);
  expect(memories(dir)).toEqual([]);

  fs.appendFileSync(transcript, `${last.slice(cut)}\n`);
  expect((await stop()).code).toBe(0);
  await waitForDetachedExtracts(dir);
  expect(memories(dir)).toHaveLength(1);
});

test('a transcript Claude Code creates only after Stop fired is waited for; one that never comes is logged as gone', async () => {
  const { root, dir, transcript, input, env } = workspace();
  const stop = await runMemdir(['extract', '--hook', '--dir', dir, '--engine', 'local'], { cwd: root, env, input });
  expect(stop.code).toBe(0);
  expect(stop.stderr).toBe('');
  await new Promise((resolve) => setTimeout(resolve, 300));
  fs.writeFileSync(transcript, `${line('user', 'u1', REMEMBER, null)}\n${line('assistant', 'a1', 'Noted.', 'u1')}\n`);
  await waitForDetachedExtracts(dir);
  expect(memories(dir)).toHaveLength(1);

  const gone = workspace();
  expect((await runMemdir(['extract', '--hook', '--dir', gone.dir, '--engine', 'local'], { cwd: gone.root, env: gone.env, input: gone.input })).code).toBe(0);
  await waitForDetachedExtracts(gone.dir);
  expect(fs.readFileSync(path.join(gone.dir, '.memdir/extract.log'), 'utf8')).toMatch(/sess-1\.jsonl.*ENOENT/);
  expect(memories(gone.dir)).toEqual([]);
});

/** A preload that stalls the process for 1.5 s right after it arms a 1 s timer: what a loaded machine's scheduler can do. */
const STALL_AFTER_ARMING = `
const arm = global.setTimeout;
global.setTimeout = function (callback, ms, ...rest) {
  const timer = arm(callback, ms, ...rest);
  if (ms === 1000) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
  return timer;
};
`;

// The input wait's timer fires in the event loop's timers phase, before the poll phase reads the
// JSON (and EOF) already waiting on stdin: a hook stalled past the wait must still take that input.
test('a hook stalled past its input wait still reads the JSON Claude Code already sent', async () => {
  const { root, dir, transcript, input, env } = workspace();
  fs.writeFileSync(transcript, `${line('user', 'u1', REMEMBER, null)}\n${line('assistant', 'a1', 'Noted.', 'u1')}\n`);
  const preload = path.join(root, 'stall.cjs');
  fs.writeFileSync(preload, STALL_AFTER_ARMING);
  const result = await runMemdir(['extract', '--hook', '--dir', dir, '--engine', 'local'], { cwd: root, env: { ...env, NODE_OPTIONS: `--require ${preload}` }, input });
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  await waitForDetachedExtracts(dir);
  expect(memories(dir)).toHaveLength(1);
});

test('the runs the hook starts keep what was asked for only (the inferred is kept for review), unless extract.explicitOnly is false in the config', async () => {
  const { root, dir, transcript, input, env } = workspace();
  const inferred = 'I prefer small pull requests, one change each.';
  fs.writeFileSync(transcript, `${line('user', 'u1', inferred, null)}\n${line('assistant', 'a1', 'OK.', 'u1')}\n${line('user', 'u2', REMEMBER, 'a1')}\n`);
  expect((await runMemdir(['extract', '--hook', '--dir', dir, '--engine', 'local'], { cwd: root, env, input })).code).toBe(0);
  await waitForDetachedExtracts(dir);
  expect(memories(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))).toEqual([expect.stringContaining('Tuesdays')]);
  expect(fs.readFileSync(path.join(dir, '.memdir/extract/candidates.jsonl'), 'utf8')).toContain(`"statement":"${inferred}"`);

  // The same transcript in a directory whose config turns inference back on for the hook.
  const other = workspace();
  fs.copyFileSync(transcript, other.transcript);
  fs.writeFileSync(path.join(other.root, 'memdir.config.json'), JSON.stringify({ extract: { explicitOnly: false } }));
  expect((await runMemdir(['extract', '--hook', '--dir', other.dir, '--engine', 'local'], { cwd: other.root, env: other.env, input: other.input })).code).toBe(0);
  await waitForDetachedExtracts(other.dir);
  expect(memories(other.dir)).toHaveLength(2);
});
