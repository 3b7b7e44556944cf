import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { requestStrings } from '../helpers/agent-request.js';
import { runClaude } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { SAVE_MERGE_FREEZE } from '../helpers/fixtures.js';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

test('the UserPromptSubmit hook puts the merge-freeze memory, with its header, in front of the model once per session', async () => {
  const home = tempDir();
  const repo = await createRepo(path.join(tempDir(), 'app'));
  writeTree(repo, {
    '.claude/settings.json': JSON.stringify({
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'memdir recall --hook --engine local' }] }] },
    }),
  });
  const env = cleanEnv(home);
  const save = await runMemdir(SAVE_MERGE_FREEZE, { cwd: repo, env });
  expect(save.code, save.stderr).toBe(0);
  await runMemdir(['save', '--type', 'feedback', '--name', 'Terse replies', '--description', 'User wants no recap at the end of responses', '--body', 'No summary.'], { cwd: repo, env });
  const file = path.join((await runMemdir(['where'], { cwd: repo, env })).stdout.trim(), 'project_mobile_merge_freeze.md');

  const sessionId = '4f1c2b7e-8a4d-4c55-9d0e-0123456789ab';
  const ask = async (prompt: string, extra: string[]) => {
    const before = server.requests.length;
    const r = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt, args: extra });
    expect(r.code, r.stderr).toBe(0);
    const messages = server.requests.slice(before).filter((q) => q.method === 'POST' && q.url.startsWith('/v1/messages'));
    return messages.map(requestStrings).join('\n');
  };

  const first = await ask('can I merge the mobile branch this week?', ['--session-id', sessionId]);
  expect(first).toContain(`Memory (saved today): ${file}:`);
  expect(first).toContain('Merge freeze on main until 2026-03-05 for the mobile release.');
  expect(first).not.toContain('No summary.');

  const second = await ask('and what about merging the mobile branch next week?', ['--resume', sessionId]);
  expect(second.split(`Memory (saved today): ${file}:`).length - 1).toBe(1); // only the first turn's copy, in the resumed history
});
