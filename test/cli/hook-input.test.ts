import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { cleanEnv, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const recorded = (event: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, 'test/fixtures/shared/claude-code-2.1.197/hook-input', `${event}.json`), 'utf8'));

// The hook inputs Claude Code 2.1.197 really sent, with only cwd and prompt changed.
test.each([
  ['context', 'SessionStart', {}, /Merge freeze/],
  ['recall', 'UserPromptSubmit', { prompt: 'can we merge the mobile branch today?' }, /project_freeze\.md/],
])('%s --hook answers the recorded %s input', async (command, event, change, expected) => {
  const dir = tempDir();
  writeTree(dir, {
    'MEMORY.md': '- [Merge freeze](project_freeze.md) — no merges to main during the mobile release\n',
    'project_freeze.md': '---\nname: Merge freeze\ndescription: No merges to main during the mobile release\ntype: project\n---\nNo merges to main until the mobile release branch is cut.\n',
  });
  const input = JSON.stringify({ ...recorded(event), cwd: dir, ...change });
  const result = await runMemdir([command, '--hook', '--dir', dir], { cwd: dir, env: cleanEnv(dir), input });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const answer = JSON.parse(result.stdout);
  expect(answer.hookSpecificOutput.hookEventName).toBe(event);
  expect(answer.hookSpecificOutput.additionalContext).toMatch(expected);
});

// Stdin that is a file (or /dev/null) is read at once, without process.stdin: the same answers.
test.each([
  ['a file holding the recorded input', true],
  ['/dev/null (no input)', false],
])('recall --hook with stdin from %s', (_, fromFile) => {
  const dir = tempDir();
  writeTree(dir, {
    'MEMORY.md': '- [Merge freeze](project_freeze.md) — no merges to main during the mobile release\n',
    'project_freeze.md': '---\nname: Merge freeze\ndescription: No merges to main during the mobile release\ntype: project\n---\nNo merges to main until the mobile release branch is cut.\n',
    'input.json': JSON.stringify({ ...recorded('UserPromptSubmit'), cwd: dir, prompt: 'can we merge the mobile branch today?' }),
  });
  const stdin = fs.openSync(fromFile ? path.join(dir, 'input.json') : '/dev/null', 'r');
  try {
    const result = spawnSync(process.execPath, [path.join(repoRoot, 'bin/memdir.cjs'), 'recall', '--hook', '--dir', dir], {
      cwd: dir,
      env: cleanEnv(dir),
      stdio: [stdin, 'pipe', 'pipe'],
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    if (fromFile) expect(JSON.parse(result.stdout).hookSpecificOutput.additionalContext).toMatch(/project_freeze\.md/);
    else expect(result.stdout).toBe('');
  } finally {
    fs.closeSync(stdin);
  }
});
