import path from 'node:path';
import { expect, test } from 'vitest';
import { runRecorded } from '../helpers/load-recorder.js';
import { cleanEnv, memdirBin, repoRoot } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

test('context --hook answers SessionStart without the CLI, exactly as the full CLI does; other forms go to the CLI', async () => {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  writeTree(dir, {
    'MEMORY.md': '- [Merge freeze](project_freeze.md) — no merges until 2026-03-05\n',
    'project_freeze.md': '---\nname: Merge freeze\ndescription: No merges\ntype: project\n---\nHold.\n',
  });
  const env = cleanEnv(path.join(root, 'home'));
  const input = JSON.stringify({ session_id: 's', cwd: root, hook_event_name: 'SessionStart', source: 'startup' });
  const fast = await runRecorded(root, [memdirBin, 'context', '--hook', '--dir', dir], { env, input });
  const full = await runRecorded(root, [path.join(repoRoot, 'dist/cli.cjs'), 'context', '--hook', '--dir', dir], { env, input });
  expect([fast.code, fast.stderr, full.code, full.stderr]).toEqual([0, '', 0, '']);
  expect(fast.stdout).toBe(full.stdout);
  expect(JSON.parse(fast.stdout).hookSpecificOutput).toMatchObject({ hookEventName: 'SessionStart', additionalContext: expect.stringContaining('[Merge freeze](project_freeze.md)') });
  expect([fast.modules.some((m) => m.endsWith('dist/fast/context.cjs')), fast.modules.some((m) => m.endsWith('dist/cli.cjs'))]).toEqual([true, false]);
  // Not a hook form: the full CLI, which never loads the fast bundle.
  const plain = await runRecorded(root, [memdirBin, 'context', '--dir', dir], { env });
  expect([plain.code, plain.modules.some((m) => m.endsWith('dist/fast/context.cjs')), plain.modules.some((m) => m.endsWith('dist/cli.cjs'))]).toEqual([0, false, true]);
  const json = await runRecorded(root, [memdirBin, 'context', '--hook', '--dir', dir, '--json'], { env, input });
  expect([json.code, json.stdout, json.modules.some((m) => m.endsWith('dist/cli.cjs'))]).toEqual([0, fast.stdout, true]);
});
