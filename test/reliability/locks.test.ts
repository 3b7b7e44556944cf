import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { deadPointerIndex, liveTopics } from '../helpers/bloated.js';
import { holdLock, type LockHolder } from '../helpers/lock-holder.js';
import { freezeWorkspace } from '../helpers/memory-workspace.js';
import { runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';
import { withDirLock } from '../../src/store/lock.js';

const holders: LockHolder[] = [];
afterEach(async () => {
  for (const holder of holders.splice(0)) {
    holder.child.kill('SIGKILL');
    await holder.exited;
  }
});

// A stale limit of 100 ms: any holder that works longer would have lost its lock before.
const workspace = (staleLimit = true) => freezeWorkspace(staleLimit ? { MEMDIR_LOCK_STALE_MS: '100' } : {});

async function hold(dir: string, options: { busyMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<LockHolder> {
  const holder = await holdLock(dir, options);
  holders.push(holder);
  return holder;
}

const save = (dir: string, env: NodeJS.ProcessEnv, name: string) =>
  runMemdir(['save', '--dir', dir, '--type', 'project', '--name', name, '--description', `${name}, saved while another writer worked`, '--body', `${name}.`], { cwd: dir, env, timeoutMs: 60_000 });

/** Temp files and lock a crashed writer leaves behind (besides the state folder's own files). */
function leftovers(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((rel) => path.basename(rel).startsWith('.memdir-tmp-') || rel === path.join('.memdir', 'lock'));
}

/** A PID that belonged to a process which has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

/** The PID in `dir`'s lock once `run` has taken it; undefined if `run` finished first. */
async function lockHolderPid(dir: string, run: Promise<unknown>): Promise<number | undefined> {
  let finished = false;
  void run.then(() => (finished = true));
  while (!finished) {
    try {
      return (JSON.parse(fs.readFileSync(path.join(dir, '.memdir', 'lock'), 'utf8')) as { pid: number }).pid;
    } catch {
      await sleep(2); // not taken yet, or its body is still being written
    }
  }
  return undefined;
}

describe('a live writer keeps its lock (issue 8, item 3)', () => {
  test('a holder working longer than the stale limit is waited for, not broken: both writes survive', async () => {
    const { dir, env } = workspace();
    const holder = await hold(dir, { busyMs: 1_500, env });
    const saved = await save(dir, env, 'Saved during a long write');
    expect(await holder.exited).toBe(0);
    expect(saved.code).toBe(0);
    const index = fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(index).toContain('written by the lock holder');
    expect(index).toContain('[Saved during a long write]');
    expect(leftovers(dir)).toEqual([]);
  });

  test('a save during a long lint --fix keeps its pointer', async () => {
    const { dir, env } = workspace();
    const live = liveTopics(5_001);
    writeTree(dir, live.files);
    fs.appendFileSync(path.join(dir, 'MEMORY.md'), `${live.index}${deadPointerIndex(5_000)}`);
    const lint = runMemdir(['lint', '--fix', '--dir', dir], { cwd: dir, env: { ...env, MEMDIR_LOCK_STALE_MS: '1' }, timeoutMs: 100_000 });
    await lockHolderPid(dir, lint); // the save starts once lint holds the lock (or has finished)
    const saved = await save(dir, { ...env, MEMDIR_LOCK_STALE_MS: '1' }, 'Saved during lint');
    expect(saved.code).toBe(0);
    expect((await lint).stderr).not.toMatch(/Error/);
    const index = fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(index).toContain('[Saved during lint]');
    expect(index).toContain('[Merge freeze]');
    expect(index).toContain('(project_live_5000.md)');
    expect(index).not.toContain('project_gone_');
  });

  test.skipIf(process.platform !== 'linux')(
    'a lock whose PID now belongs to another process is broken at once',
    async () => {
      const { dir, env } = workspace();
      // This test's own process is alive, but it started at another time than the body says: the PID was reused.
      writeTree(dir, { '.memdir/lock': JSON.stringify({ pid: process.pid, time: Date.now(), token: 'reused', start: 1 }) });
      const saved = await save(dir, { ...env, MEMDIR_LOCK_STALE_MS: '600000' }, 'After a reused PID');
      expect(saved.code).toBe(0);
      expect(leftovers(dir)).toEqual([]);
    },
    20_000,
  );
});

describe('where a holder’s start time cannot be read, its heartbeat decides', () => {
  const lockWithoutStart = (dir: string, ageMs: number) => {
    writeTree(dir, { '.memdir/lock': JSON.stringify({ pid: process.pid, start: null, time: Date.now() - 600_000, token: 'alive' }) });
    const beat = new Date(Date.now() - ageMs);
    fs.utimesSync(path.join(dir, '.memdir/lock'), beat, beat);
  };

  test('a recent heartbeat keeps the lock, an old one lets it go', async () => {
    const dir = tempDir();
    lockWithoutStart(dir, 0);
    await expect(withDirLock(dir, () => 'ran', { staleMs: 5_000, timeoutMs: 300 })).rejects.toThrow(/locked by process/);
    lockWithoutStart(dir, 10_000);
    await expect(withDirLock(dir, () => 'ran', { staleMs: 5_000, timeoutMs: 300 })).resolves.toBe('ran');
  });

  test('a holder beats while it waits', async () => {
    const dir = tempDir();
    const lock = path.join(dir, '.memdir/lock');
    await withDirLock(
      dir,
      async () => {
        const taken = fs.statSync(lock).mtimeMs;
        await sleep(300);
        expect(fs.statSync(lock).mtimeMs).toBeGreaterThan(taken);
      },
      { staleMs: 100 },
    );
  });
});

describe('hooks do not wait on a busy lock (issue 8, item 9)', () => {
  const hookInput = (dir: string) => JSON.stringify({ session_id: 's1', prompt: 'can I merge to main during the mobile release freeze?', cwd: dir, hook_event_name: 'UserPromptSubmit' });

  // The default stale limit, as in the field: a holder is live and its lock is fresh.
  // The session record takes no lock (only the session's own hook writes it), so a busy lock costs nothing.
  test('recall --hook answers and records while a live process holds the lock', async () => {
    const { dir, env } = workspace(false);
    await hold(dir, { env });
    const r = await runMemdir(['recall', '--hook', '--dir', dir], { cwd: dir, env, input: hookInput(dir) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('Merge freeze');
    expect(r.stderr).toBe('');
    expect(JSON.parse(fs.readFileSync(path.join(dir, '.memdir/recall-sessions/s1.json'), 'utf8')).surfaced.length).toBeGreaterThan(0);
  }, 15_000);

  test('context --hook answers while a live writer holds the lock with a journal', async () => {
    const { dir, env } = workspace(false);
    await hold(dir, { env });
    writeTree(dir, { '.memdir/journal.json': '[]' });
    const r = await runMemdir(['context', '--hook', '--dir', dir], { cwd: dir, env, input: JSON.stringify({ cwd: dir, hook_event_name: 'SessionStart' }) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('[Merge freeze](project_freeze.md)');
  }, 15_000);
});

describe('read-only commands clear a dead writer’s leftovers (issue 8, item 10)', () => {
  test('lint after a crash leaves no temp files and no lock', async () => {
    const { dir, env } = workspace();
    writeTree(dir, { '.memdir/lock': JSON.stringify({ pid: deadPid(), time: Date.now(), token: 'crashed' }) });
    for (let i = 0; i < 200; i++) writeTree(dir, { [`.memdir-tmp-${String(i).padStart(12, '0')}-project_part_${i}.md`]: `part ${i}\n` });
    writeTree(dir, { 'sub/.memdir-tmp-000000000000-project_nested.md': 'nested\n' });
    const r = await runMemdir(['lint', '--dir', dir], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(leftovers(dir)).toEqual([]);
  });

  test('lint leaves a live writer’s lock and temp files alone, without waiting for it', async () => {
    const { dir, env } = workspace();
    await hold(dir, { env });
    writeTree(dir, { '.memdir-tmp-000000000000-project_new.md': 'being written\n' });
    const r = await runMemdir(['lint', '--dir', dir], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(leftovers(dir).sort()).toEqual(['.memdir-tmp-000000000000-project_new.md', path.join('.memdir', 'lock')].sort());
  }, 15_000);
});

describe('signals', () => {
  test('SIGTERM during lint --fix leaves the old index or the new one, and the next read-only command clears the rest', async () => {
    const { dir, env } = workspace();
    const live = liveTopics(10_001);
    writeTree(dir, live.files);
    const after = `${fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')}${live.index}`;
    const before = `${after}${deadPointerIndex(10_000)}`;
    fs.writeFileSync(path.join(dir, 'MEMORY.md'), before);
    const lint = runMemdir(['lint', '--fix', '--dir', dir], { cwd: dir, env, timeoutMs: 100_000 });
    // runMemdir spawns node directly: the lock body names its PID.
    const holder = await lockHolderPid(dir, lint);
    if (holder) process.kill(holder, 'SIGTERM');
    await lint;
    expect([before, after]).toContain(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8'));
    const r = await runMemdir(['lint', '--dir', dir], { cwd: dir, env });
    expect(r.code).toBeLessThan(2);
    expect(leftovers(dir)).toEqual([]);
    expect([before, after]).toContain(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8'));
  });
});
