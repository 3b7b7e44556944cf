import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { CLEAN } from '../helpers/dream-fixture.js';
import { inPool, leftovers, memoryState, STACK_TRACE, stateKey, writeDatedTree } from '../helpers/reliability.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

// A second dream is killed (SIGKILL) after each of its durable write steps in turn, between its
// history manifest and its apply included. After each: the memories are the old or the new state,
// `dream --undo` undoes the last run that applied (this one, or the one before it), and the last
// consolidation time is moved only by a run that applied.

const topic = (name: string, description: string, type: string, body: string, modified?: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n${modified ? `modified: ${modified}\n` : ''}---\n\n${body}\n`;

const twin = (name: string) =>
  topic(
    name,
    'Deploys to production happen only on Tuesday mornings after the canary passes',
    'project',
    'Deploys to production happen only on Tuesday mornings after the canary passes.\n\n**Why:** the on-call rota is staffed then.\n**How to apply:** schedule releases for Tuesday.',
  );

const beta = (when: string) =>
  topic(
    'Beta date',
    'When the beta ships to external testers',
    'project',
    `The beta ships ${when} to all external testers.\n\n**Why:** marketing launch.\n**How to apply:** freeze features before it.`,
    '2026-02-26',
  );

const files: Record<string, string> = {
  'user_role.md': CLEAN['user_role.md']!,
  'feedback_terse.md': CLEAN['feedback_terse.md']!,
  'project_deploy_window.md': twin('Deploy window'),
  'project_deploy_window_old.md': twin('Deploy window (old)'),
  'project_beta.md': beta('on 2026-03-06'),
};
const index = ['# Memory', '', ...Object.entries(files).map(([file, text]) => `- [${/name: (.*)/.exec(text)![1]}](${file}) — ${/description: (.*)/.exec(text)![1]}`), ''].join('\n');

const FIRST_RUN = '2026-03-01T10:00:00.000Z';
const SECOND_RUN = '2026-03-03T10:00:00.000Z';

/** The memories without the consolidation lock, whose body is the PID of whoever ran last. */
const memories = (dir: string) => stateKey(Object.fromEntries(Object.entries(memoryState(dir)).filter(([file]) => file !== '.consolidate-lock')));

/**
 * A directory dreamed once (the twins merged), then given a relative date: a second run fixes only
 * that. `copy` gives a fresh copy of it; the states are what each run or undo leaves.
 */
async function twoRuns() {
  const root = tempDir();
  const env = cleanEnv(path.join(root, 'home'));
  const dream = (dir: string, args: string[], extra: NodeJS.ProcessEnv = {}) => runMemdir(['dream', '--dir', dir, ...args], { cwd: root, env: { ...env, MEMDIR_TEST_NOW: SECOND_RUN, ...extra } });
  const before = path.join(root, 'before');
  writeDatedTree(before, { ...files, 'MEMORY.md': index });
  const first = await dream(before, ['--force'], { MEMDIR_TEST_NOW: FIRST_RUN });
  expect(first.code, first.stderr).toBe(0);
  fs.writeFileSync(path.join(before, 'project_beta.md'), beta('next Friday'));
  const oldState = memories(before);
  const copy = (name: string, from = before) => {
    const dir = path.join(root, name);
    fs.cpSync(from, dir, { recursive: true, preserveTimestamps: true });
    return dir;
  };

  const applied = copy('applied');
  const second = await dream(applied, ['--force']);
  expect(second.code, second.stderr).toBe(0);
  const newState = memories(applied);
  expect(newState).not.toBe(oldState);
  // Undone, each run gives back exactly what it found.
  const undoneSecond = copy('undone-second', applied);
  expect((await dream(undoneSecond, ['--undo'])).code).toBe(0);
  expect(memories(undoneSecond)).toBe(oldState);
  const undoneFirst = copy('undone-first');
  expect((await dream(undoneFirst, ['--undo'])).code).toBe(0);
  const firstUndoneState = memories(undoneFirst);
  expect(firstUndoneState).not.toBe(oldState);
  return { dream, copy, applied, oldState, newState, firstUndoneState };
}

/** Kill at step 1, 2, … until a run gets through untouched; the trials of the steps it took. */
async function everyStep<T extends { step: number; completed: boolean }>(trial: (step: number) => Promise<T>): Promise<T[]> {
  let steps = Infinity;
  function* untilFinished(): Generator<number> {
    for (let step = 1; step <= steps; step++) yield step;
  }
  const trials = await inPool(untilFinished(), 2, async (step) => {
    const result = await trial(step);
    if (result.completed) steps = Math.min(steps, step - 1);
    return result;
  });
  return trials.filter((t) => t.step <= steps);
}

test('dream killed at every write step: old or new state, undo restores the last applied run, the gate moves only when it applied', async () => {
  const { dream, copy, oldState, newState, firstUndoneState } = await twoRuns();

  const trial = async (step: number) => {
    const dir = copy(`killed-${step}`);
    const killed = await dream(dir, ['--force'], { MEMDIR_TEST_CRASH_AFTER_STEP: String(step) });
    const where = `killed after step ${step}`;
    const problems: string[] = [];
    const status = await dream(dir, ['--status', '--json']);
    const state = memories(dir);
    const seen = state === oldState ? 'old' : state === newState ? 'new' : 'mixed';
    if (seen === 'mixed') problems.push(`${where}: neither the old nor the new state`);
    const last = status.code === 0 ? (JSON.parse(status.stdout) as { gate: { lastConsolidation: string | null } }).gate.lastConsolidation : status.stderr;
    const expectedLast = seen === 'new' ? SECOND_RUN : FIRST_RUN;
    if (last !== expectedLast) problems.push(`${where}: last consolidation ${last}, expected ${expectedLast} (${seen} state)`);
    const undo = await dream(dir, ['--undo']);
    if (undo.code !== 0 || STACK_TRACE.test(undo.stderr)) problems.push(`${where}: --undo exit ${undo.code}: ${undo.stderr.split('\n')[0]}`);
    const expectedUndone = seen === 'new' ? oldState : firstUndoneState;
    if (memories(dir) !== expectedUndone) problems.push(`${where}: --undo did not restore the last applied run (${seen} state)`);
    // The gate's count and the lock's record are written before the writer lock, by a lone temp +
    // rename: one hidden temp there may stay after a kill; none may in the memories or the history.
    const left = leftovers(dir).filter((file) => !/^\.memdir\/\.memdir-tmp-[0-9a-f]+-(dream-gate|consolidate-lock)\.json\.tmp$/.test(file));
    if (left.length > 0) problems.push(`${where}: left ${left.join(', ')}`);
    fs.rmSync(dir, { recursive: true, force: true });
    return { step, completed: killed.code === 0, seen, problems };
  };

  const stopped = await everyStep(trial);
  expect(stopped.length, 'write steps').toBeGreaterThanOrEqual(6);
  expect(stopped.some((t) => t.seen === 'old')).toBe(true);
  expect(stopped.some((t) => t.seen === 'new')).toBe(true);
  expect(stopped.flatMap((t) => t.problems)).toEqual([]);
}, 240_000);

test('dream --undo killed at every write step: the run is undone or not, never half, and undo goes on from there', async () => {
  const { dream, copy, applied, oldState, newState, firstUndoneState } = await twoRuns();
  const stopped = await everyStep(async (step) => {
    const dir = copy(`undo-killed-${step}`, applied);
    const killed = await dream(dir, ['--undo'], { MEMDIR_TEST_CRASH_AFTER_STEP: String(step) });
    const where = `--undo killed after step ${step}`;
    const problems: string[] = [];
    // Seen as the next command sees it: an undo killed after its commit point is finished first.
    await dream(dir, ['--status']);
    const state = memories(dir);
    const seen = state === oldState ? 'undone' : state === newState ? 'not undone' : 'mixed';
    if (seen === 'mixed') problems.push(`${where}: neither before nor after the undo`);
    // The next undo takes the run before (when this one got through) or this one again.
    const next = await dream(dir, ['--undo']);
    if (next.code !== 0) problems.push(`${where}: the next --undo exit ${next.code}: ${next.stderr.split('\n')[0]}`);
    else if (memories(dir) !== (seen === 'undone' ? firstUndoneState : oldState)) problems.push(`${where}: the next --undo did not restore the run before (${seen})`);
    fs.rmSync(dir, { recursive: true, force: true });
    return { step, completed: killed.code === 0, seen, problems };
  });
  expect(stopped.some((t) => t.seen === 'undone')).toBe(true);
  expect(stopped.some((t) => t.seen === 'not undone')).toBe(true);
  expect(stopped.flatMap((t) => t.problems)).toEqual([]);
}, 240_000);
