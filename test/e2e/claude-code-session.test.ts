import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { requestStrings } from '../helpers/agent-request.js';
import { claudeReleases, runClaude, waitForDetachedExtracts } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

const SESSION_IDS = { '2.1.197': '5e55a0d1-3b6c-4f08-a1d5-0c9e8b7a6f61', latest: '5e55a0d1-3b6c-4f08-a1d5-0c9e8b7a6f62' } as const;
const REQUEST = 'please rename the billing module to payments across the whole repository';

describe.each(claudeReleases)('Claude Code %s', (release) => {
  test("the Stop hook keeps the session's notes from the real transcript; after /compact they reach the model", async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(repo, {
      '.claude/settings.json': JSON.stringify({
        hooks: {
          Stop: [{ hooks: [{ type: 'command', command: 'memdir session --hook' }] }],
          // Only after a compaction: what reaches the model then comes from that SessionStart alone.
          SessionStart: [{ matcher: 'compact', hooks: [{ type: 'command', command: 'memdir context --hook' }] }],
        },
      }),
      // A conversation with the fake model is a few hundred tokens: notes from the first turn on.
      'memdir.config.json': JSON.stringify({ session: { initTokens: 0, updateTokens: 0 } }),
    });
    const env = cleanEnv(home);
    const dir = (await runMemdir(['where'], { cwd: repo, env })).stdout.trim();
    const sessionId = SESSION_IDS[release];
    const notesFile = path.join(dir, '.memdir/sessions', `${sessionId}.md`);
    const turn = async (prompt: string, args: string[]) => {
      const before = server.requests.length;
      const r = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt, release, args });
      expect(r.code, r.stderr).toBe(0);
      await waitForDetachedExtracts(dir, 60_000, 'session');
      return server.requests.slice(before).filter((q) => q.method === 'POST' && q.url.startsWith('/v1/messages') && !q.url.includes('count_tokens'));
    };

    await turn(REQUEST, ['--session-id', sessionId]);
    const first = fs.readFileSync(notesFile, 'utf8');
    // The notes come from the transcript Claude Code wrote: the request, cited by its message's uuid.
    const transcript = path.join(home, '.claude/projects', fs.readdirSync(path.join(home, '.claude/projects'))[0]!, `${sessionId}.jsonl`);
    const promptUuid = fs
      .readFileSync(transcript, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; uuid?: string; message?: { content?: unknown } })
      .find((l) => l.type === 'user' && JSON.stringify(l.message?.content ?? '').includes(REQUEST))!.uuid!;
    expect(first).toContain(`- Request: "${REQUEST}" [m:${promptUuid.slice(0, 8)}]`);

    // 2.1.197 compacts nothing shorter than a few exchanges ("Not enough messages to compact.").
    await turn('thanks, keep the old name too', ['--resume', sessionId]);
    await turn('ok, noted for later today', ['--resume', sessionId]);
    const compacting = await turn('/compact', ['--resume', sessionId]);
    expect(compacting.length).toBeGreaterThan(0); // the summary request: Claude Code compacted
    const after = (await turn('continue', ['--resume', sessionId])).map(requestStrings);
    const conversation = after.find((text) => text.includes('continue'));
    expect(conversation).toBeDefined();
    expect(conversation).toContain('## Notes kept on this session');
    // The notes as they stood at the compaction reached the model, references kept.
    const brought = conversation!.slice(conversation!.indexOf('## Notes kept on this session'));
    expect(brought).toContain(`- Request: "${REQUEST}" [m:${promptUuid.slice(0, 8)}]`);
    expect(brought).toMatch(/- Follow-up: "thanks, keep the old name too" \[m:[0-9a-f]{8}\]/);
    expect(brought).toContain('### Worklog');
  });
});
