import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { bloatedIndex } from '../helpers/bloated.js';
import { inPool, leftovers, memoryState, STACK_TRACE, stateKey, writeDatedTree } from '../helpers/reliability.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

// Every writer is stopped after each of its durable write steps in turn (fault injection in
// src/store/test-hooks.ts), by SIGKILL and by SIGTERM. The next command must find the old state or the
// new one, never a mix, and leave no temp file, lock or journal behind.

const memory = (name: string, description: string, type: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${body}\n`;

const smallDirectory: Record<string, string> = {
  'MEMORY.md':
    '# Memory\n\n' +
    '- [Grafana dashboards](reference_grafana.md) — where latency dashboards for the billing service live\n' +
    '- [Terse replies](feedback_terse.md) — user wants no recap at the end of responses\n' +
    '- [Merge freeze](project_freeze.md) — no merges to main until the release branch is cut\n',
  'reference_grafana.md': memory('Grafana dashboards', 'where latency dashboards for the billing service live', 'reference', 'https://grafana.example.com/d/billing'),
  'feedback_terse.md': memory(
    'Terse replies',
    'user wants no recap at the end of responses',
    'feedback',
    'Skip the trailing summary.\n\n**Why:** the user reads the diff.\n**How to apply:** every response.',
  ),
  'project_freeze.md': memory(
    'Merge freeze',
    'no merges to main until the release branch is cut',
    'project',
    'No merges to main until 2026-03-05.\n\n**Why:** release stabilisation.\n**How to apply:** hold PRs.',
  ),
};

/** A dead pointer and an unindexed file: `lint --fix` rewrites the index. */
const lintableDirectory: Record<string, string> = {
  ...smallDirectory,
  'MEMORY.md': `${smallDirectory['MEMORY.md']}- [Old runbook](reference_gone.md) — removed long ago\n`,
  'reference_pager.md': memory('Pager rota', 'who is on call for the payments queue this quarter', 'reference', 'See the PagerDuty schedule "payments-primary".'),
};

const nearDuplicate = (name: string) =>
  memory(
    name,
    'Deploys to production happen only on Tuesday mornings after the canary passes',
    'project',
    'Deploys to production happen only on Tuesday mornings after the canary passes.\n\n**Why:** the on-call rota is staffed then.\n**How to apply:** schedule releases for Tuesday.',
  );

/** A bloated index (topic files created, index rewritten) and two near-duplicates (one merged away, so a delete too). */
const bloatedDirectory: Record<string, string> = {
  'MEMORY.md': bloatedIndex(4, 3),
  'project_deploy_window.md': nearDuplicate('Deploy window'),
  'project_deploy_window_old.md': nearDuplicate('Deploy window (old)'),
};

/** An export from another machine: one memory this directory lacks, one it has, and that machine's index (merged into this one's). */
// Made once for the whole file: tempDir's folders go after each test, and every test of 'import' reads this one.
const importSource = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-import-source-')), 'export');
afterAll(() => fs.rmSync(path.dirname(importSource), { recursive: true, force: true }));
writeTree(importSource, {
  'MEMORY.md': '- [Linear board](reference_linear.md) — where the mobile team tracks its bugs\n',
  'reference_linear.md': memory('Linear board', 'where the mobile team tracks its bugs', 'reference', 'https://linear.app/acme/team/MOB'),
  'feedback_terse.md': smallDirectory['feedback_terse.md']!,
});

interface Writer {
  name: string;
  files: Record<string, string>;
  args: string[];
  /** At least this many steps (temp files, journal, renames): proof the writer goes through the fault points. */
  minSteps: number;
}

const writers: Writer[] = [
  { name: 'refactor', files: bloatedDirectory, args: ['refactor'], minSteps: 10 },
  {
    name: 'save (new memory)',
    files: smallDirectory,
    args: ['save', '--type', 'reference', '--name', 'Linear board', '--description', 'where the mobile team tracks its bugs', '--body', 'https://linear.app/acme/team/MOB'],
    minSteps: 5,
  },
  {
    name: 'save (update)',
    files: smallDirectory,
    args: ['save', '--type', 'project', '--name', 'Merge freeze', '--description', 'no merges to main until 2026-03-12', '--body', 'The freeze moved to 2026-03-12.'],
    minSteps: 5,
  },
  { name: 'forget', files: smallDirectory, args: ['forget', 'feedback_terse.md'], minSteps: 4 },
  { name: 'lint --fix', files: lintableDirectory, args: ['lint', '--fix'], minSteps: 3 },
  { name: 'import', files: smallDirectory, args: ['import', importSource], minSteps: 5 },
];

interface Trial {
  step: number;
  /** The writer got past its last step without being stopped. */
  completed: boolean;
  state: 'old' | 'new' | 'mixed';
  problems: string[];
}

describe.each(writers)('$name stopped at every write step', (writer) => {
  test('SIGKILL and SIGTERM: the next command sees the old or the new state and leaves nothing behind', async () => {
    const root = tempDir();
    const env = cleanEnv(path.join(root, 'home'));
    const prepare = (name: string): string => {
      const dir = path.join(root, name);
      writeDatedTree(dir, writer.files);
      return dir;
    };
    const oldState = stateKey(memoryState(prepare('old')));
    const reference = prepare('new');
    const clean = await runMemdir([...writer.args, '--dir', reference], { cwd: root, env });
    expect(clean.code, clean.stderr).toBeLessThan(2);
    const newState = stateKey(memoryState(reference));
    expect(newState).not.toBe(oldState);

    const trial = async (signal: string, step: number): Promise<Trial> => {
      const dir = prepare(`${signal}-${step}`);
      const crashEnv = { ...env, MEMDIR_TEST_CRASH_AFTER_STEP: String(step), MEMDIR_TEST_CRASH_SIGNAL: signal };
      const crashed = await runMemdir([...writer.args, '--dir', dir], { cwd: root, env: crashEnv });
      const next = await runMemdir(['lint', '--dir', dir], { cwd: root, env });
      const state = stateKey(memoryState(dir));
      const where = `${signal} after step ${step}`;
      const problems: string[] = [];
      if (next.code > 1 || STACK_TRACE.test(next.stderr)) problems.push(`${where}: next \`lint\` exit ${next.code}: ${next.stderr.split('\n')[0]}`);
      const seen = state === oldState ? 'old' : state === newState ? 'new' : 'mixed';
      if (seen === 'mixed') problems.push(`${where}: neither the old nor the new state`);
      const left = leftovers(dir);
      if (left.length > 0) problems.push(`${where}: left ${left.join(', ')}`);
      fs.rmSync(dir, { recursive: true, force: true });
      return { step, completed: crashed.code === clean.code, state: seen, problems };
    };

    // SIGKILL first, step after step, until a run finishes untouched: that counts the steps.
    let steps = Infinity;
    function* untilFinished(): Generator<number> {
      for (let step = 1; step <= steps; step++) yield step;
    }
    const killed = await inPool(untilFinished(), 2, async (step) => {
      const result = await trial('SIGKILL', step);
      if (result.completed) steps = Math.min(steps, step - 1);
      return result;
    });
    const stopped = killed.filter((t) => t.step <= steps);
    expect(steps, 'write steps').toBeGreaterThanOrEqual(writer.minSteps);
    expect(stopped.some((t) => t.completed)).toBe(false);
    // Both sides of the commit point were hit.
    expect(stopped.some((t) => t.state === 'old')).toBe(true);
    expect(stopped.some((t) => t.state === 'new')).toBe(true);

    const termed = await inPool(
      Array.from({ length: steps }, (_, i) => i + 1),
      2,
      (step) => trial('SIGTERM', step),
    );
    expect([...killed, ...termed].flatMap((t) => t.problems)).toEqual([]);
  }, 180_000);
});
