import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { requestStrings } from '../helpers/agent-request.js';
import { claudeReleases, memdirOnPath, runClaude, waitForDetachedExtracts } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { runMemdir } from '../helpers/run-cli.js';
import { teamSetup } from '../helpers/team-sync.js';

/**
 * Team memory pulled by `memdir sync` into a clone reaches the real Claude Code through memdir's
 * hooks: the team index at session start (SessionStart → `memdir context --hook`) and the team
 * memory itself through the prompt hook (UserPromptSubmit → `memdir recall --hook`), where Claude
 * Code's own team memory is off.
 */
let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

const BARE_PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`;
const BODY = 'Releases leave main every Tuesday at 10:00 UTC; merge by Monday evening.';
const POINTER = '- [Release train](project_release_train.md) — Releases leave main every Tuesday 10:00 UTC';

test.each(claudeReleases)('Claude Code %s: a team memory a teammate pushed reaches the model at session start and through the prompt hook, only once the hooks are installed', async (release) => {
  const { clones, env, home } = await teamSetup(['alice', 'bob']);
  const { alice, bob } = clones as Record<'alice' | 'bob', (typeof clones)[string] & object>;
  const memdir = async (args: string[], cwd: string) => {
    const result = await runMemdir(args, { cwd, env: env({ PATH: `${memdirOnPath()}:${BARE_PATH}` }), timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };
  // Each clone's memory directory is where Claude Code looks for it (no --dir in the hooks).
  const aliceDir = (await memdir(['where'], alice.repo)).trim();
  const bobDir = (await memdir(['where'], bob.repo)).trim();
  await memdir(['save', '--team', '--type', 'project', '--name', 'Release train', '--description', 'Releases leave main every Tuesday 10:00 UTC', '--body', BODY], alice.repo);
  await memdir(['sync'], alice.repo);
  await memdir(['sync'], bob.repo);

  const ask = async (prompt: string) => {
    const before = server.requests.length;
    const result = await runClaude({ cwd: bob.repo, home, baseUrl: server.url, prompt, release });
    expect(result.code, result.stderr).toBe(0);
    return server.requests
      .slice(before)
      .filter((q) => q.method === 'POST' && q.url.startsWith('/v1/messages'))
      .map(requestStrings)
      .join('\n');
  };
  const prompt = 'can I merge my branch before the release train leaves on Tuesday?';
  const recalled = `Memory (saved today): ${path.join(bobDir, 'team', 'project_release_train.md')}:`;

  // Claude Code on its own (its team memory off) loads only the private MEMORY.md: the team memory stays on disk.
  const plain = await ask(prompt);
  expect(plain).not.toContain(BODY);
  expect(plain).not.toContain(POINTER);

  // The default install: SessionStart adds team memory only, beside the private index Claude Code loads itself.
  await memdir(['hooks', 'install', '--claude'], bob.repo);
  const hooked = await ask(prompt);
  // SessionStart: the team section carries the team index as loaded.
  expect(hooked).toContain(`## team/MEMORY.md\n${POINTER}`);
  expect(hooked).toContain(`stored at \`${bobDir}/team/\` with their own \`MEMORY.md\` below`);
  // UserPromptSubmit: recall picked the team memory and gave its text.
  expect(hooked).toContain(recalled);
  expect(hooked).toContain(BODY);

  await waitForDetachedExtracts(bobDir);
  await waitForDetachedExtracts(aliceDir);
});
