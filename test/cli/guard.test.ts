import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runRecorded } from '../helpers/load-recorder.js';
import { cleanEnv, memdirBin, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

/**
 * The PreToolUse guard on the built binary, one fixture per case (test/fixtures/guard/<case>/: the
 * hook input with $MEMDIR and $PROJECT for the temp folders, the memory directory, and the exact
 * answer): each blocking rule, and look-alikes that must pass.
 */
const FIXTURES = path.join(repoRoot, 'test/fixtures/guard');
const CASES = fs.readdirSync(FIXTURES).sort();

interface Prepared {
  root: string;
  memory: string;
  project: string;
  input: string;
  env: NodeJS.ProcessEnv;
}

function prepare(name: string): Prepared {
  const root = tempDir();
  const memory = path.join(root, 'memory');
  const project = path.join(root, 'project');
  fs.cpSync(path.join(FIXTURES, name, 'memory'), memory, { recursive: true });
  fs.mkdirSync(project);
  const input = fs
    .readFileSync(path.join(FIXTURES, name, 'input.json'), 'utf8')
    .replaceAll('$MEMDIR', memory)
    .replaceAll('$PROJECT', project);
  return { root, memory, project, input, env: cleanEnv(path.join(root, 'home')) };
}

const expected = (name: string) => (JSON.parse(fs.readFileSync(path.join(FIXTURES, name, 'expected.json'), 'utf8')) as { stdout: unknown }).stdout;

describe('memdir guard --hook on the fixtures', () => {
  test('every blocking rule has a fixture and so does every look-alike', () => {
    expect(CASES.filter((c) => c.startsWith('block-'))).toEqual([
      'block-frontmatter-missing',
      'block-frontmatter-type',
      'block-index-over-limit',
      'block-inline-content',
      'block-inline-multiedit',
      'block-poisoning',
      'block-secret',
      'block-team-inline',
    ]);
    expect(CASES.filter((c) => c.startsWith('allow-'))).toHaveLength(6);
  });

  test.each(CASES)('%s', async (name) => {
    const { memory, project, input, env } = prepare(name);
    const before = snapshotTree(memory);
    const hook = await runMemdir(['guard', '--hook', '--dir', memory], { cwd: project, env, input });
    const answer = expected(name);
    expect({ code: hook.code, stdout: hook.stdout, stderr: hook.stderr }).toEqual({ code: 0, stdout: answer === null ? '' : `${JSON.stringify(answer)}\n`, stderr: '' });
    // The plain command says the same, as an exit code.
    const plain = await runMemdir(['guard', '--dir', memory, '--json'], { cwd: project, env, input });
    const reasons = answer === null ? [] : [(answer as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason.replace(/^memdir guard: /, '')];
    expect({ code: plain.code, json: JSON.parse(plain.stdout) }).toEqual({
      code: name.startsWith('block-') ? 1 : 0,
      json: { decision: name.startsWith('block-') ? 'deny' : 'allow', reasons, warnings: [] },
    });
    expect(snapshotTree(memory)).toEqual(before);
  });
});

test('the hook runs on its fast path: no yargs, no full CLI; the hook runtime and judge load only for a write that may land in the memory directory', async () => {
  const { root, memory, project, input, env } = prepare('block-inline-content');
  const run = await runRecorded(root, [memdirBin, 'guard', '--hook', '--dir', memory], { env, input, cwd: project });
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  expect(['dist/fast/guard.cjs', 'dist/guard-hook.cjs', 'dist/cli.cjs'].map((bundle) => run.modules.some((m) => m.endsWith(bundle)))).toEqual([true, true, false]);
  // A write outside the memory directory loads nothing but the fast path: no hook runtime, judge or lint's rules.
  const outside = prepare('allow-outside');
  const light = await runRecorded(outside.root, [memdirBin, 'guard', '--hook', '--dir', outside.memory], { env: outside.env, input: outside.input, cwd: outside.project });
  expect([light.code, light.stdout, light.stderr]).toEqual([0, '', '']);
  expect(['dist/fast/guard.cjs', 'dist/guard-hook.cjs', 'dist/cli.cjs'].map((bundle) => light.modules.some((m) => m.endsWith(bundle)))).toEqual([true, false, false]);
});

test('MEMDIR_HOOKS=0 lets every write through', async () => {
  const { memory, project, input, env } = prepare('block-inline-content');
  const run = await runMemdir(['guard', '--hook', '--dir', memory], { cwd: project, env: { ...env, MEMDIR_HOOKS: '0' }, input });
  expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
});

test('the guard section sets each kind: warn lets the write through with a note, off says nothing', async () => {
  const { root, memory, project, input, env } = prepare('block-inline-content');
  const config = path.join(root, 'home', '.config', 'memdir', 'config.json');
  writeTree(path.dirname(config), { 'config.json': JSON.stringify({ guard: { inlineContent: 'warn' } }) });
  const warned = await runMemdir(['guard', '--hook', '--dir', memory], { cwd: project, env, input });
  const reason = (expected('block-inline-content') as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
  expect(warned).toEqual({ code: 0, stdout: `${JSON.stringify({ systemMessage: reason })}\n`, stderr: '' });
  fs.writeFileSync(config, JSON.stringify({ guard: { inlineContent: 'off' } }));
  expect(await runMemdir(['guard', '--hook', '--dir', memory], { cwd: project, env, input })).toEqual({ code: 0, stdout: '', stderr: '' });
  fs.writeFileSync(config, JSON.stringify({ guard: { inlineContent: 'never' } }));
  const bad = await runMemdir(['guard', '--hook', '--dir', memory], { cwd: project, env, input });
  expect([bad.code, bad.stdout, bad.stderr]).toEqual([0, '', expect.stringMatching(/^memdir guard hook skipped: .*config\.json: guard\.inlineContent: must be one of block, warn, off\n$/)]);
});

test('a write through a symlink that leads out of the memory directory is refused', async () => {
  const { root, memory, project, env } = prepare('allow-new-topic-before-pointer');
  fs.mkdirSync(path.join(root, 'elsewhere'));
  fs.symlinkSync(path.join(root, 'elsewhere', 'notes.md'), path.join(memory, 'project_notes.md'));
  const input = JSON.stringify({ session_id: 's', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path.join(memory, 'project_notes.md'), content: 'x\n' } });
  const run = await runMemdir(['guard', '--hook', '--dir', memory], { cwd: project, env, input });
  const permissionDecisionReason = `memdir guard: project_notes.md leads outside the memory directory (to ${path.join(root, 'elsewhere', 'notes.md')}) through a symlink; write the memory inside the directory.`;
  expect(run).toEqual({ code: 0, stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason } })}\n`, stderr: '' });
});

test('bad input: the hook lets the write through with one line on stderr; the plain command exits 2', async () => {
  const { memory, project, env } = prepare('allow-outside');
  const hook = await runMemdir(['guard', '--hook', '--dir', memory], { cwd: project, env, input: '{"tool_name": ' });
  expect([hook.code, hook.stdout, hook.stderr]).toEqual([0, '', expect.stringMatching(/^memdir guard hook skipped: [^\n]+\n$/)]);
  const plain = await runMemdir(['guard', '--dir', memory], { cwd: project, env, input: 'not json' });
  expect([plain.code, plain.stdout, plain.stderr.split('\n').filter(Boolean).length]).toEqual([2, '', 1]);
  expect(plain.stderr).toMatch(/stdin: hook input on stdin is not/);
});
