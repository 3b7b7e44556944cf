import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runClaude } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

test('SessionEnd runs `memdir dream --hook`: nothing for five sessions, then, 24 h later, the sixth session end consolidates and leaves a report', async () => {
  const home = tempDir();
  const repo = await createRepo(path.join(tempDir(), 'app'));
  writeTree(repo, { '.claude/settings.json': JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'memdir dream --hook' }] }] } }) });
  const env = cleanEnv(home);
  const dir = (await runMemdir(['where'], { cwd: repo, env })).stdout.trim();
  writeTree(dir, {
    'MEMORY.md': '# Memory\n\n- [Role](user_role.md) — User is a staff engineer on the payments team\n- [Gone](project_gone.md) — a memory whose file was deleted\n',
    'user_role.md': '---\nname: Role\ndescription: User is a staff engineer on the payments team\ntype: user\n---\n\nStaff engineer, owns payments.\n',
  });
  // Consolidated a minute ago.
  const start = Date.now() - 60_000;
  fs.writeFileSync(path.join(dir, '.consolidate-lock'), '');
  fs.utimesSync(path.join(dir, '.consolidate-lock'), new Date(start), new Date(start));
  const reports = () => (fs.existsSync(path.join(dir, '.memdir', 'dream')) ? fs.readdirSync(path.join(dir, '.memdir', 'dream')).filter((f) => f.endsWith('.md')) : []);

  for (let session = 1; session <= 5; session++) {
    const r = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: `hello ${session}` });
    expect(r.code, r.stderr).toBe(0);
    expect(reports()).toEqual([]);
  }
  const tomorrow = new Date(start + 25 * 3_600_000).toISOString();
  const sixth = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'hello 6', env: { MEMDIR_TEST_NOW: tomorrow } });
  expect(sixth.code, sixth.stderr).toBe(0);
  expect(reports()).toHaveLength(1);
  expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).not.toContain('project_gone.md');
  expect(fs.statSync(path.join(dir, '.consolidate-lock')).mtime.toISOString()).toBe(tomorrow);
});
