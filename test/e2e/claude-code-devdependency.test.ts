import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { requestStrings } from '../helpers/agent-request.js';
import { claudeReleases, runClaude, waitForDetachedExtracts } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { SAVE_MERGE_FREEZE } from '../helpers/fixtures.js';
import { createRepo } from '../helpers/git-repo.js';
import { installPackedAsDevDependency, offlineNpm } from '../helpers/package.js';
import { cleanEnv, runProcess } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The recommended install, as a user makes it: memdir from the packed tarball as a devDependency,
 * `npx memdir hooks install`, then the real Claude Code releases, whose PATH has node but no memdir (as when
 * it is started from a shell): the hooks it runs with `sh -c` find the project's memdir.
 */
let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

/** A user's PATH: node and the system, no memdir. */
const USER_PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`;

test('npx memdir hooks install from a devDependency: the next claude -p session of each release runs the hooks', async () => {
  const home = tempDir();
  const repo = await createRepo(path.join(tempDir(), 'app'));
  const env = offlineNpm(cleanEnv(home, { PATH: USER_PATH }));
  const installed = await installPackedAsDevDependency(repo, env);
  expect(installed.code, installed.stderr).toBe(0);
  const npx = (args: string[]) => runProcess('npx', ['memdir', ...args], { cwd: repo, env, timeoutMs: 60_000 });

  expect((await npx(SAVE_MERGE_FREEZE)).code).toBe(0);
  const dir = (await npx(['where'])).stdout.trim();
  const hooked = await npx(['hooks', 'install', '--claude']);
  expect(hooked.code, hooked.stderr).toBe(0);
  const settings = JSON.parse(fs.readFileSync(path.join(repo, '.claude/settings.local.json'), 'utf8'));
  expect(settings.hooks.UserPromptSubmit[0].hooks[0].command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/memdir recall --hook');
  const status = await npx(['hooks', 'status']);
  expect(status.code, `${status.stdout}${status.stderr}`).toBe(0);
  expect(status.stdout).toContain(`found: ${path.join(repo, 'node_modules/.bin/memdir')} (not run)`);

  for (const release of claudeReleases) {
    const before = server.requests.length;
    const session = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'can I merge the mobile branch this week?', release, env: { PATH: USER_PATH } });
    expect(session.code, session.stderr).toBe(0);
    const sent = server.requests
      .slice(before)
      .filter((q) => q.method === 'POST' && q.url.startsWith('/v1/messages'))
      .map(requestStrings)
      .join('\n');
    // The UserPromptSubmit hook ran the project's memdir: recall's answer reached the model.
    expect(sent, release).toContain(`Memory (saved today): ${path.join(dir, 'project_mobile_merge_freeze.md')}:`);
  }
  // The Stop hook started an extract on the directory: let it end before the test's cleanup.
  await waitForDetachedExtracts(dir);
});
