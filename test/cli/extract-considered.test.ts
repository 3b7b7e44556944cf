/**
 * `extract --dry-run` and `--json` show the reasoning: every statement considered as a memory, with
 * its decision and reason (docs/commands/extract.md, "Considered").
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { sharedFixtures } from '../helpers/fixtures.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

/** One user prompt per turn (uuids u0, u1…), each answered, as Claude Code chains them. */
function transcriptFile(root: string, prompts: string[]): string {
  const lines: string[] = [];
  let parent: string | null = null;
  prompts.forEach((content, i) => {
    const timestamp = `2026-03-02T10:0${i}:00Z`;
    lines.push(JSON.stringify({ type: 'user', uuid: `u${i}`, parentUuid: parent, sessionId: 'sess-c', timestamp, message: { role: 'user', content } }));
    lines.push(
      JSON.stringify({ type: 'assistant', uuid: `a${i}`, parentUuid: `u${i}`, sessionId: 'sess-c', timestamp, message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: 'OK.' }] } }),
    );
    parent = `a${i}`;
  });
  const file = path.join(root, 't.jsonl');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function workspace() {
  const root = tempDir();
  return { root, dir: path.join(root, 'memory'), env: cleanEnv(path.join(root, 'home')) };
}

const PROMPTS = [
  'fix the failing login test',
  'Please remember that the staging database is wiped every Sunday night.',
  'we always use tabs in this repo, fix the indentation in this file for now',
  'Remember that this test code is only meant to cover the parser.',
  'From now on, answer in British English.',
  'remember: the deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  'Which approach is better?\n1. always use Redis\n2. never cache',
  'Please remember: never mock the database in integration tests.',
];

const TASK_AT_HAND = 'points at the work at hand ("this …", "for now", "today", pasted output)';
const NOT_ASKED = 'inferred, not asked for: this run keeps explicit requests and standing instructions only';

/** The hand-made conversation in a project whose CLAUDE.md has a rule, beside a memory that already makes another. */
async function handMade() {
  const { root, dir, env } = workspace();
  writeTree(root, { 'CLAUDE.md': '# Style\n- Answer in British English.\n' });
  const save = await runMemdir(
    [
      'save',
      '--dir',
      dir,
      '--type',
      'feedback',
      '--name',
      'No database mocks',
      '--description',
      'Never mock the database in integration tests',
      '--body',
      'Never mock the database in integration tests.',
    ],
    { cwd: root, env },
  );
  expect(save.code, save.stderr).toBe(0);
  return { root, dir, env, file: transcriptFile(root, PROMPTS) };
}

describe('extract lists every statement it considered, with its decision and reason', () => {
  test('--json: exact entries for a small hand-made transcript, in message order; chat lines are not candidates', async () => {
    const { root, dir, env, file } = await handMade();
    const before = snapshotTree(dir);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--dry-run', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).considered).toEqual([
      { message: 'u1', statement: 'the staging database is wiped every Sunday night.', kind: 'explicit', decision: 'saved', reason: 'a new memory' },
      { message: 'u2', statement: 'we always use tabs in this repo, fix the indentation in this file for now', kind: 'standing', decision: 'task-scoped', reason: TASK_AT_HAND },
      { message: 'u3', statement: 'this test code is only meant to cover the parser.', kind: 'explicit', decision: 'task-scoped', reason: 'asks to keep in mind the work at hand ("this test…")' },
      { message: 'u4', statement: 'From now on, answer in British English.', kind: 'standing', decision: 'kept-elsewhere', reason: 'CLAUDE.md already says it' },
      { message: 'u5', statement: 'the deploy token is [REDACTED]', kind: 'explicit', decision: 'secret', reason: 'holds a secret (prose-credential)' },
      { message: 'u6', statement: '1. always use Redis', kind: 'standing', decision: 'not-durable', reason: 'an option listed after a question' },
      { message: 'u6', statement: '2. never cache', kind: 'standing', decision: 'not-durable', reason: 'an option listed after a question' },
      {
        message: 'u7',
        statement: 'never mock the database in integration tests.',
        kind: 'explicit',
        decision: 'duplicate',
        reason: 'feedback_no_database_mocks.md already says it',
        file: 'feedback_no_database_mocks.md',
      },
    ]);
    expect(snapshotTree(dir)).toEqual(before);

    // Written for real, the saved one names its file; in explicit-only mode what was only inferred is "not asked for",
    // while standing instructions (u4's "always", u6's options) are still judged as a plain run judges them.
    const run = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--explicit-only', '--json'], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    const considered = JSON.parse(run.stdout).considered as Array<Record<string, string>>;
    expect(considered.map((c) => [c.message, c.decision, c.reason])).toEqual([
      ['u1', 'saved', 'a new memory'],
      ['u2', 'not-asked', NOT_ASKED],
      ['u3', 'task-scoped', 'asks to keep in mind the work at hand ("this test…")'],
      ['u4', 'kept-elsewhere', 'CLAUDE.md already says it'],
      ['u5', 'secret', 'holds a secret (prose-credential)'],
      ['u6', 'not-durable', 'an option listed after a question'],
      ['u6', 'not-durable', 'an option listed after a question'],
      ['u7', 'duplicate', 'feedback_no_database_mocks.md already says it'],
    ]);
    expect(considered[0]!.file).toMatch(/^project_\w+\.md$/);
    expect(fs.existsSync(path.join(dir, considered[0]!.file!))).toBe(true);
    expect(run.stdout).not.toContain('ghp_');
  });

  test('--dry-run: one line per statement, grouped by decision, then the counts', async () => {
    const { root, dir, env, file } = await handMade();
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--dry-run'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^create \(new file\) \[project, asked for\] /);
    expect(lines.slice(1)).toEqual([
      'Considered 8 statements:',
      '  saved           "the staging database is wiped every Sunday night." (a new memory)',
      '  duplicate       "never mock the database in integration tests." (feedback_no_database_mocks.md already says it)',
      '  kept elsewhere  "From now on, answer in British English." (CLAUDE.md already says it)',
      `  task-scoped     "we always use tabs in this repo, fix the indentation in this file for now" (${TASK_AT_HAND})`,
      '  task-scoped     "this test code is only meant to cover the parser." (asks to keep in mind the work at hand ("this test…"))',
      '  not durable     "1. always use Redis" (an option listed after a question)',
      '  not durable     "2. never cache" (an option listed after a question)',
      '  secret          "the deploy token is [REDACTED]" (holds a secret (prose-credential))',
      '1 saved, 1 duplicate, 1 kept elsewhere, 2 task-scoped, 2 not durable, 1 secret',
    ]);
  });

  test('a real transcript: its explicit request is considered and saved; run again from another session, it is a duplicate with the reason', async () => {
    const { root, dir, env } = workspace();
    const real = path.join(sharedFixtures, 'claude-code-2.1.197/session-writes-memory.jsonl');
    const dry = await runMemdir(['extract', '--from', real, '--dir', dir, '--engine', 'local', '--dry-run', '--json'], { cwd: root, env });
    expect(dry.code, dry.stderr).toBe(0);
    const report = JSON.parse(dry.stdout);
    expect(report.newMessages).toBeGreaterThan(1);
    expect(report.considered).toEqual([
      { message: '3fa6680a-1faf-4e00-92b9-ddf99f15e727', statement: 'never mock the database in integration tests', kind: 'explicit', decision: 'saved', reason: 'a new memory' },
    ]);
    const saved = await runMemdir(['extract', '--from', real, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    const file = JSON.parse(saved.stdout).considered[0].file as string;
    expect(fs.existsSync(path.join(dir, file))).toBe(true);
    const again = await runMemdir(['extract', '--from', real, '--dir', dir, '--engine', 'local', '--session-id', 'another', '--json'], { cwd: root, env });
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout);
    expect(second.operations).toEqual([]);
    expect(second.considered).toEqual([
      { message: '3fa6680a-1faf-4e00-92b9-ddf99f15e727', statement: 'never mock the database in integration tests', kind: 'explicit', decision: 'duplicate', reason: `${file} already says it`, file },
    ]);
    expect(second.rejected).toEqual([{ op: 'update', file, reason: `${file} already says it`, sources: ['3fa6680a-1faf-4e00-92b9-ddf99f15e727'] }]);
  });

  test('every real fixture transcript reports considered statements with a known decision and a reason', async () => {
    const { root, dir, env } = workspace();
    const transcripts = path.join(sharedFixtures, 'transcripts');
    const files = fs
      .readdirSync(transcripts, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => path.join(transcripts, f));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--dry-run', '--json'], { cwd: root, env });
      expect(r.code, `${file}: ${r.stderr}`).toBe(0);
      const report = JSON.parse(r.stdout);
      if (report.status !== 'extracted') continue;
      expect(Array.isArray(report.considered), file).toBe(true);
      // What is saved is exactly what is considered as saved.
      expect(report.considered.filter((c: { decision: string }) => c.decision === 'saved')).toHaveLength(report.operations.length);
    }
  });
});
