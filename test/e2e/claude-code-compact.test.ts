import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { requestStrings } from '../helpers/agent-request.js';
import { claudeReleases, runClaude } from '../helpers/claude.js';
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

const SESSION_IDS = { '2.1.197': '7d2e9a41-3b6c-4f08-a1d5-0c9e8b7a6f51', latest: '7d2e9a41-3b6c-4f08-a1d5-0c9e8b7a6f52' } as const;

describe.each(claudeReleases)('Claude Code %s', (release) => {
  test('after /compact the memory the prompt hook surfaced before it reaches the model again', async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(repo, {
      '.claude/settings.json': JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'memdir recall --hook --engine local' }] }],
          // Only after a compaction: what reaches the model then comes from that SessionStart alone.
          SessionStart: [{ matcher: 'compact', hooks: [{ type: 'command', command: 'memdir context --hook' }] }],
        },
      }),
    });
    const env = cleanEnv(home);
    expect((await runMemdir(SAVE_MERGE_FREEZE, { cwd: repo, env })).code).toBe(0);
    const dir = (await runMemdir(['where'], { cwd: repo, env })).stdout.trim();
    const file = path.join(dir, 'project_mobile_merge_freeze.md');
    const sessionId = SESSION_IDS[release];
    const turn = async (prompt: string, args: string[]) => {
      const before = server.requests.length;
      const r = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt, release, args });
      expect(r.code, r.stderr).toBe(0);
      return server.requests.slice(before).filter((q) => q.method === 'POST' && q.url.startsWith('/v1/messages') && !q.url.includes('count_tokens'));
    };

    const first = (await turn('can I merge the mobile branch this week?', ['--session-id', sessionId])).map(requestStrings).join('\n');
    expect(first).toContain(`Memory (saved today): ${file}:`);
    expect(JSON.parse(fs.readFileSync(path.join(dir, `.memdir/recall-sessions/${sessionId}.json`), 'utf8')).surfaced).toEqual(['project_mobile_merge_freeze.md']);

    // 2.1.197 compacts nothing shorter than a few exchanges ("Not enough messages to compact.").
    await turn('thanks, and who owns the release checklist?', ['--resume', sessionId]);
    await turn('ok, noted for later today', ['--resume', sessionId]);
    const compacting = await turn('/compact', ['--resume', sessionId]);
    expect(compacting.length).toBeGreaterThan(0); // the summary request: Claude Code compacted
    // A one-word prompt: the prompt hook adds nothing, so the memory in this request is what the compaction's SessionStart brought back.
    const after = (await turn('continue', ['--resume', sessionId])).map(requestStrings);
    const conversation = after.find((text) => text.includes('continue'));
    expect(conversation).toBeDefined();
    expect(conversation).toContain('## Memories recalled earlier in this session');
    expect(conversation).toContain(`Memory (saved today): ${file}:`);
    expect(conversation).toContain('Merge freeze on main until 2026-03-05 for the mobile release.');
  });
});
