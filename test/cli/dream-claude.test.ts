import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { plantedWorkspace } from '../helpers/dream-fixture.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

test('dream --engine claude (real SDK, fake Messages API): valid operations applied with their reason, invalid ones reported and never applied', async () => {
  const root = tempDir();
  const { dir, repo } = await plantedWorkspace(root);
  const env = cleanEnv(path.join(root, 'home'), { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url });
  server.enqueue({
    content: [
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'consolidate_memories',
        input: {
          operations: [
            { op: 'delete', path: 'reference_oncall.md', reason: 'the rota moved to Opsgenie, see the newer on-call memory' },
            { op: 'remove-lines', path: 'user_role.md', lines: ['a line the file does not have'], reason: 'no longer true since the reorg' },
            { op: 'delete', path: '../outside.md', reason: 'an attempt to reach outside the directory' },
          ],
        },
      },
    ],
  });
  const before = fs.readFileSync(path.join(dir, 'user_role.md'), 'utf8');
  const r = await runMemdir(['dream', '--dir', dir, '--force', '--engine', 'claude', '--json'], { cwd: repo, env });
  expect(r.code, r.stderr).toBe(0);
  const result = JSON.parse(r.stdout);
  expect(result.engine).toBe('claude');
  expect(result.operations).toContainEqual({ kind: 'model', path: 'reference_oncall.md', effect: 'delete', reason: 'the model: the rota moved to Opsgenie, see the newer on-call memory' });
  expect(result.rejected.map((x: { error: string }) => x.error)).toEqual(['remove-lines must list exact, non-blank lines of user_role.md', '"../outside.md" is not one of the memories shown']);
  expect(fs.existsSync(path.join(dir, 'reference_oncall.md'))).toBe(false);
  expect(fs.readFileSync(path.join(dir, 'user_role.md'), 'utf8')).toBe(before);
  // The model saw the memories, not the file system.
  const request = server.messages().at(-1)!.text;
  expect(request).toContain('<memory path=\\"project_freeze_new.md\\" type=\\"project\\" date=\\"2026-02-20\\">');
});
