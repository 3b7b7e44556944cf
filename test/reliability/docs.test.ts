/**
 * `memdir docs` under kill -9 and concurrent runs: a run killed mid-write leaves the doc old or new,
 * never half, and the next run clears what it left; one updating run at a time per memory
 * directory, a second one's request taken by the first (real SDK, fake Messages API, real git).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { API_DOC, answer, DEPS_DOC, docsRun, jsonl, read, turnLines, UPDATED_API, workspace } from '../helpers/magic-docs.js';
import { runMemdir } from '../helpers/run-cli.js';

const UPDATED_DEPS = `${DEPS_DOC}| diff | the --dry-run diffs |\n`;

describe('memdir docs under crashes and concurrency', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
    // Each doc gets its own update, whichever run asks.
    server.setDefault((request) => answer(request.text.includes('MAGIC DOC: Dependencies') ? { unchanged: false, text: UPDATED_DEPS } : { unchanged: false, text: UPDATED_API }));
  });
  afterAll(() => server.close());

  const leftovers = (dir: string) => fs.readdirSync(dir).filter((name) => name.startsWith('.memdir-tmp-'));

  test.each([
    [1, 'after the temp file, before the rename: the old doc and a temp file left', API_DOC, 1],
    [2, 'after the rename, before the cursor: the new doc', UPDATED_API, 0],
  ])('kill -9 after write step %i, %s; the next run finishes and clears it', async (step, _label, expected, left) => {
    const ws = await workspace(server);
    const crashed = await runMemdir(['docs', '--from', ws.transcript, '--dir', ws.dir], { cwd: ws.root, env: { ...ws.env, MEMDIR_TEST_CRASH_AFTER_STEP: String(step) } });
    expect(crashed.code).not.toBe(0);
    expect(read(ws, 'docs/api.md')).toBe(expected);
    expect(leftovers(path.join(ws.root, 'docs'))).toHaveLength(left);
    const again = await docsRun(ws, '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(read(ws, 'docs/api.md')).toBe(UPDATED_API);
    expect(read(ws, 'docs/deps.md')).toBe(DEPS_DOC);
    expect(leftovers(path.join(ws.root, 'docs'))).toEqual([]);
  });

  test('a run that finds another in progress leaves its request; the running one takes it next', async () => {
    const ws = await workspace(server);
    // A second session that read the other doc.
    const other = path.join(path.dirname(ws.transcript), 'sess-other.jsonl');
    fs.writeFileSync(other, jsonl(turnLines(ws.root, 'docs/deps.md', { session: 'sess-other', prefix: 'o' })));
    server.setDefault((request) => ({
      delayMs: 1_500,
      reply: answer(request.text.includes('MAGIC DOC: Dependencies') ? { unchanged: false, text: UPDATED_DEPS } : { unchanged: false, text: UPDATED_API }),
    }));
    const first = docsRun(ws, '--json');
    // The first run holds the run lock while the model answers.
    const lock = path.join(ws.dir, '.memdir/docs/run.lock');
    for (const deadline = Date.now() + 10_000; !fs.existsSync(lock) && Date.now() < deadline; ) await new Promise((done) => setTimeout(done, 20));
    const second = await runMemdir(['docs', '--from', other, '--dir', ws.dir, '--json'], { cwd: ws.root, env: ws.env });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).status).toBe('coalesced');
    const done = await first;
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout).status).toBe('done');
    expect(read(ws, 'docs/api.md')).toBe(UPDATED_API);
    expect(read(ws, 'docs/deps.md')).toBe(UPDATED_DEPS);
    expect(fs.existsSync(path.join(ws.dir, '.memdir/docs/sessions/sess-other.json'))).toBe(true);
    expect(fs.readdirSync(path.join(ws.dir, '.memdir/docs/pending'))).toEqual([]);
  });
});
