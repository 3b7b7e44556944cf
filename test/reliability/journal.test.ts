import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { freezeWorkspace } from '../helpers/memory-workspace.js';
import { runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, writeTree } from '../helpers/temp.js';

function workspace() {
  const { dir, env } = freezeWorkspace();
  fs.appendFileSync(path.join(dir, 'MEMORY.md'), '- [Rollout](project_rollout.md) — billing rollout plan\n');
  // An indexed path that is a directory, not a file.
  fs.mkdirSync(path.join(dir, 'project_rollout.md'));
  return { dir, env };
}

const STATE_FILES = ['.memdir/.gitignore'];

/** The memory files, without the state folder taking the lock creates. */
const memoryFiles = (dir: string) => Object.fromEntries(Object.entries(snapshotTree(dir)).filter(([f]) => !STATE_FILES.includes(f)));

/** What is left besides memory files: temp files and state. */
const leftovers = (dir: string) => Object.keys(snapshotTree(dir)).filter((f) => f.includes('.memdir') && !STATE_FILES.includes(f));

/** Every command a user or hook runs works (exit below 2) on `dir`. */
async function everyCommandWorks(dir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const run = (args: string[], input?: string) => runMemdir(args, { cwd: dir, env, input });
  const results = [
    await run(['lint', '--dir', dir]),
    await run(['recall', '--dir', dir, 'merge freeze on main']),
    await run(['context', '--dir', dir]),
    await run(['save', '--dir', dir, '--type', 'project', '--name', 'After the failure', '--description', 'saved after a failed write', '--body', 'Still works.']),
    await run(['forget', '--dir', dir, 'After the failure']),
  ];
  for (const r of results) expect(r.code, r.stderr).toBeLessThan(2);
  const hook = await run(['recall', '--hook', '--dir', dir], JSON.stringify({ session_id: 's', prompt: 'can I merge to main during the freeze?', cwd: dir }));
  expect(hook.code).toBe(0);
  expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain('Merge freeze');
  return results.map((r) => r.stderr);
}

describe('a write that targets a directory (issue 8, item 8)', () => {
  test('refactor fails before its journal: one line, exit 2, nothing changed, and every command still works', async () => {
    const { dir, env } = workspace();
    const before = memoryFiles(dir);
    const r = await runMemdir(['refactor', '--dir', dir], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(path.join(dir, 'project_rollout.md'));
    expect(r.stderr).toContain('is a directory');
    expect(leftovers(dir)).toEqual([]);
    expect(memoryFiles(dir)).toEqual(before);
    await everyCommandWorks(dir, env);
  });

  test('MEMORY.md as a directory: refactor and lint --fix change nothing and leave nothing', async () => {
    const { dir, env } = workspace();
    fs.rmSync(path.join(dir, 'MEMORY.md'));
    fs.mkdirSync(path.join(dir, 'MEMORY.md'));
    const before = memoryFiles(dir);
    for (const args of [['refactor'], ['lint', '--fix']]) {
      const r = await runMemdir([...args, '--dir', dir], { cwd: dir, env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`${path.join(dir, 'MEMORY.md')}: is a directory`);
      expect(leftovers(dir)).toEqual([]);
      expect(memoryFiles(dir)).toEqual(before);
    }
  });
});

describe('a journal whose roll-forward fails (issue 8, item 8)', () => {
  test('is set aside with one warning, keeps the unwritten content, and blocks nothing', async () => {
    const { dir, env } = workspace();
    // What an older memdir left: a committed journal whose rename hits the directory.
    const temp = '.memdir-tmp-0123456789ab-project_rollout.md';
    writeTree(dir, {
      [temp]: '---\nname: Rollout\ndescription: Billing rollout plan\ntype: project\n---\n\nRoll out by region.\n',
      '.memdir/journal.json': JSON.stringify([{ path: 'project_rollout.md', temp }]),
    });
    const [first, ...rest] = await everyCommandWorks(dir, env);
    expect(first!.split('\n').filter((line) => line.includes('journal.failed.json'))).toHaveLength(1);
    for (const stderr of rest) expect(stderr).not.toContain('journal');
    expect(fs.existsSync(path.join(dir, '.memdir/journal.json'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dir, '.memdir/journal.failed.json'), 'utf8'))).toEqual([{ path: 'project_rollout.md', temp }]);
    expect(fs.readFileSync(path.join(dir, temp), 'utf8')).toContain('Roll out by region.');
  });
});

describe('temp files', () => {
  test('a write stopped after its first step leaves a hidden temp file that no *.md glob takes for a memory', async () => {
    const { dir, env } = freezeWorkspace();
    const r = await runMemdir(['save', '--dir', dir, '--type', 'project', '--name', 'Cut short', '--description', 'a save killed after writing its temp file', '--body', 'Half.'], {
      cwd: dir,
      env: { ...env, MEMDIR_TEST_CRASH_AFTER_STEP: '1' },
    });
    expect(r.code).not.toBe(0);
    const temps = Object.keys(snapshotTree(dir)).filter((f) => path.basename(f).startsWith('.memdir-tmp-'));
    expect(temps).toHaveLength(1);
    expect(temps[0]).toMatch(/^\.memdir-tmp-[0-9a-f]{12}-project_cut_short\.md\.tmp$/);
    // The next command under the lock finds the crashed writer's temp file and sweeps it.
    expect((await runMemdir(['lint', '--fix', '--dir', dir], { cwd: dir, env })).code).toBeLessThan(2);
    expect(Object.keys(snapshotTree(dir)).filter((f) => f.includes('.memdir-tmp-'))).toEqual([]);
  });
});
