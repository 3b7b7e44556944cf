import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { sanitizeProjectPath } from '../../src/core/paths.js';
import { addWorktree, createRepo } from '../helpers/git-repo.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

function touch(file: string, ms: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, '');
  fs.utimesSync(file, new Date(ms), new Date(ms));
}

/** A project repository with a linked worktree, a memory directory consolidated at T0, and an empty Claude Code home. */
async function project() {
  const root = tempDir();
  const home = path.join(root, 'home');
  const repo = await createRepo(path.join(root, 'repo'));
  const worktree = await addWorktree(repo, path.join(root, 'wt'));
  const dir = path.join(root, 'memory');
  writeTree(dir, {
    'MEMORY.md': '# Memory\n\n- [Role](user_role.md) — User is a staff engineer on the payments team\n- [Gone](project_gone.md) — a memory whose file was deleted\n',
    'user_role.md': '---\nname: Role\ndescription: User is a staff engineer on the payments team\ntype: user\n---\n\nStaff engineer, owns payments.\n',
  });
  touch(path.join(dir, '.consolidate-lock'), T0);
  const transcripts = (root: string) => path.join(home, '.claude', 'projects', sanitizeProjectPath(root));
  return { root, home, repo, worktree, dir, transcripts, env: (now: number) => cleanEnv(home, { MEMDIR_TEST_NOW: at(now) }) };
}

async function status(p: Awaited<ReturnType<typeof project>>, now: number) {
  const r = await runMemdir(['dream', '--dir', p.dir, '--status', '--json'], { cwd: p.repo, env: p.env(now) });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).gate as { due: boolean; reason: string; sessionsSince: number | null; cached: boolean };
}

describe('dream gate (fake clock via MEMDIR_TEST_NOW)', () => {
  test('not due at 23 h or at 4 sessions, due at 24 h and 5; a linked worktree counts; the scan runs at most every 10 minutes', async () => {
    const p = await project();
    for (const id of ['s1', 's2', 's3', 's4']) touch(path.join(p.transcripts(p.repo), `${id}.jsonl`), T0 + HOUR);
    // Neither subagent transcripts nor sessions before the last consolidation count.
    touch(path.join(p.transcripts(p.repo), 'agent-a1.jsonl'), T0 + HOUR);
    touch(path.join(p.transcripts(p.repo), 'old.jsonl'), T0 - HOUR);

    expect(await status(p, T0 + 23 * HOUR)).toMatchObject({ due: false, sessionsSince: null });
    expect(await status(p, T0 + 24 * HOUR)).toMatchObject({ due: false, sessionsSince: 4, cached: false });
    touch(path.join(p.transcripts(p.worktree), 's5.jsonl'), T0 + 2 * HOUR);
    // Counted 5 minutes ago: the count is reused.
    expect(await status(p, T0 + 24 * HOUR + 5 * 60_000)).toMatchObject({ due: false, sessionsSince: 4, cached: true });
    expect(await status(p, T0 + 24 * HOUR + 11 * 60_000)).toMatchObject({ due: true, sessionsSince: 5, cached: false });
    const human = await runMemdir(['dream', '--dir', p.dir, '--status'], { cwd: p.repo, env: p.env(T0 + 24 * HOUR + 12 * 60_000) });
    expect(human.stdout).toContain('due: 24.2 h since the last consolidation, 5 session(s) since');
    // The session ending now is not one of the sessions since.
    const ending = await runMemdir(['dream', '--hook', '--json'], {
      cwd: p.repo,
      env: { ...p.env(T0 + 24 * HOUR + 13 * 60_000), CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: p.dir },
      input: JSON.stringify({ cwd: p.repo, session_id: 's5' }),
    });
    expect(JSON.parse(ending.stdout)).toMatchObject({ status: 'not-due', gate: { sessionsSince: 4 } });

    // Not due: --hook and --if-due exit 0 quietly; a bare run says why and exits 1.
    const early = p.env(T0 + 2 * HOUR);
    const hook = await runMemdir(['dream', '--hook'], { cwd: p.repo, env: { ...early, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: p.dir }, input: JSON.stringify({ cwd: p.repo, session_id: 's9' }) });
    expect(hook).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((await runMemdir(['dream', '--dir', p.dir, '--if-due'], { cwd: p.repo, env: early })).code).toBe(0);
    const bare = await runMemdir(['dream', '--dir', p.dir], { cwd: p.repo, env: early });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('dream is not due: 2.0 h since the last consolidation, under 24 h');

    // Due: the run moves the consolidation time to now, so the next check is not due.
    const due = T0 + 25 * HOUR;
    const run = await runMemdir(['dream', '--dir', p.dir, '--if-due'], { cwd: p.repo, env: p.env(due) });
    expect(run.stdout).toContain('Improved 0 memories (0 merged, 0 dates, 0 pruned, 1 dead pointer dropped, MEMORY.md rewritten)');
    expect(fs.statSync(path.join(p.dir, '.consolidate-lock')).mtimeMs).toBe(due);
    expect(await status(p, due + HOUR)).toMatchObject({ due: false });
  });
});

describe('.consolidate-lock', () => {
  test('sessions whose notes were written since count too, each session once', async () => {
    const p = await project();
    // Two sessions with a transcript here, one of them with notes as well; two with notes alone (their transcripts live elsewhere).
    for (const id of ['s1', 's2']) touch(path.join(p.transcripts(p.repo), `${id}.jsonl`), T0 + HOUR);
    for (const id of ['s2', 'n1', 'n2']) touch(path.join(p.dir, '.memdir/sessions', `${id}.md`), T0 + HOUR);
    // Notes written before the last consolidation do not count.
    touch(path.join(p.dir, '.memdir/sessions', 'old.md'), T0 - HOUR);
    expect(await status(p, T0 + 24 * HOUR)).toMatchObject({ due: false, sessionsSince: 4, cached: false });
    touch(path.join(p.dir, '.memdir/sessions', 'n3.md'), T0 + 2 * HOUR);
    expect(await status(p, T0 + 24 * HOUR + 11 * 60_000)).toMatchObject({ due: true, sessionsSince: 5, cached: false });
  });

  test('held by a live process within the hour: the other dream says "already running" (exit 0 with --hook)', async () => {
    const p = await project();
    const now = T0 + 48 * HOUR;
    fs.writeFileSync(path.join(p.dir, '.consolidate-lock'), String(process.pid));
    touch(path.join(p.dir, '.consolidate-lock'), now - 60_000);
    const r = await runMemdir(['dream', '--dir', p.dir, '--force'], { cwd: p.repo, env: p.env(now) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('dream is already running');
    const hook = await runMemdir(['dream', '--hook', '--force'], { cwd: p.repo, env: { ...p.env(now), CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: p.dir }, input: '{}' });
    expect(hook.code).toBe(0);
    expect(fs.readFileSync(path.join(p.dir, 'MEMORY.md'), 'utf8')).toContain('project_gone.md');
    // An hour later the same live PID no longer holds it.
    const later = await runMemdir(['dream', '--dir', p.dir, '--force'], { cwd: p.repo, env: p.env(now + HOUR) });
    expect(later.code, later.stderr).toBe(0);
  });

  test('a lock whose PID is dead is reclaimed', async () => {
    const p = await project();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const now = T0 + 48 * HOUR;
    fs.writeFileSync(path.join(p.dir, '.consolidate-lock'), dead);
    touch(path.join(p.dir, '.consolidate-lock'), now - 60_000);
    const r = await runMemdir(['dream', '--dir', p.dir, '--force'], { cwd: p.repo, env: p.env(now) });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(p.dir, 'MEMORY.md'), 'utf8')).not.toContain('project_gone.md');
    expect(fs.readFileSync(path.join(p.dir, '.consolidate-lock'), 'utf8')).toBe('');
  });

  test('a failed run puts the previous consolidation time back', async () => {
    const p = await project();
    // An index memdir cannot decode: the run fails after taking the lock.
    fs.writeFileSync(path.join(p.dir, 'MEMORY.md'), Buffer.from([0x2d, 0x20, 0xff, 0xfe, 0x0a]));
    const r = await runMemdir(['dream', '--dir', p.dir, '--force'], { cwd: p.repo, env: p.env(T0 + 48 * HOUR) });
    expect(r.code).toBe(2);
    expect(fs.statSync(path.join(p.dir, '.consolidate-lock')).mtimeMs).toBe(T0);
    fs.rmSync(path.join(p.dir, '.consolidate-lock'));
    await runMemdir(['dream', '--dir', p.dir, '--force'], { cwd: p.repo, env: p.env(T0 + 48 * HOUR) });
    // None before: none after.
    expect(fs.existsSync(path.join(p.dir, '.consolidate-lock'))).toBe(false);
  });
});

describe('dream --hook fast path (bin/memdir.cjs → dist/fast/dream.cjs)', () => {
  /** Node's module log says whether the full CLI (dist/cli.cjs) was loaded. */
  const loadsCli = (stderr: string) => /load "[^"]*dist[\\/]cli\.cjs"/.test(stderr);
  const withoutModuleLog = (stderr: string) =>
    stderr
      .split('\n')
      .filter((line) => line && !/^MODULE \d+:/.test(line))
      .join('\n');

  test('not due from the gate state alone: answered without the CLI; a scan, a config or unusual input hands over, with the same answers', async () => {
    const p = await project();
    for (const id of ['s1', 's2']) touch(path.join(p.transcripts(p.repo), `${id}.jsonl`), T0 + HOUR);
    const input = JSON.stringify({ cwd: p.repo, session_id: 's9', hook_event_name: 'SessionEnd' });
    const hook = (now: number, extra: string[] = [], stdin = input) =>
      runMemdir(['dream', '--hook', '--dir', p.dir, ...extra], { cwd: p.repo, env: { ...p.env(now), NODE_DEBUG: 'module' }, input: stdin });

    // 2 h since the last consolidation: one stat decides, before the input is read.
    const early = await hook(T0 + 2 * HOUR);
    expect([early.code, early.stdout, withoutModuleLog(early.stderr), loadsCli(early.stderr)]).toEqual([0, '', '', false]);
    // Past 24 h with no count yet: the full CLI scans (and records the count) …
    const scanned = await hook(T0 + 25 * HOUR);
    expect([scanned.code, scanned.stdout, withoutModuleLog(scanned.stderr), loadsCli(scanned.stderr)]).toEqual([0, '', '', true]);
    expect(JSON.parse(fs.readFileSync(path.join(p.dir, '.memdir/dream-gate.json'), 'utf8'))).toMatchObject({ sessions: 2, sessionId: 's9' });
    // … which the next session end within 10 minutes reuses without the CLI; later it scans again.
    expect(loadsCli((await hook(T0 + 25 * HOUR + 5 * 60_000)).stderr)).toBe(false);
    expect(loadsCli((await hook(T0 + 25 * HOUR + 11 * 60_000)).stderr)).toBe(true);
    // Flags the fast path reads: --min-hours decides; others (--json) go to the CLI.
    expect(loadsCli((await hook(T0 + 2 * HOUR, ['--min-hours', '1'])).stderr)).toBe(true);
    expect(loadsCli((await hook(T0 + 2 * HOUR, ['--json'])).stderr)).toBe(true);

    // Input that is not JSON: within the hours it is never read (exit 0, nothing said) …
    const unread = await hook(T0 + 2 * HOUR, [], 'nope');
    expect([unread.code, unread.stdout, withoutModuleLog(unread.stderr), loadsCli(unread.stderr)]).toEqual([0, '', '', false]);
    // … past them the fast path reads it and says the same one line as the full CLI, exit 0.
    const fast = await hook(T0 + 30 * HOUR, [], 'nope');
    const full = await hook(T0 + 30 * HOUR, ['--json'], 'nope');
    expect(fast.code).toBe(0);
    expect(withoutModuleLog(fast.stderr)).toBe(withoutModuleLog(full.stderr));
    expect(withoutModuleLog(fast.stderr)).toMatch(/^memdir dream hook skipped: /);

    // A configuration may move the gate (here to 1 h): the CLI reads it, and the run is due.
    fs.writeFileSync(path.join(p.dir, 'memdir.config.json'), JSON.stringify({ dream: { minHours: 1, minSessions: 1 } }));
    const configured = await hook(T0 + 26 * HOUR);
    expect(loadsCli(configured.stderr)).toBe(true);
    expect(fs.statSync(path.join(p.dir, '.consolidate-lock')).mtimeMs).toBe(T0 + 26 * HOUR);
  });
});
