import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadedMemory } from '../helpers/agent-request.js';
import { pointerIndex } from '../helpers/bloated.js';
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

async function askClaude(repo: string, home: string) {
  const before = server.requests.length;
  const claude = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'What do you remember?' });
  expect(claude.code, claude.stderr).toBe(0);
  return loadedMemory(server.requests.slice(before))!;
}

test('a 249-line index: cut with a warning before refactor, every topic file reachable after', async () => {
  const home = tempDir();
  const repo = await createRepo(path.join(tempDir(), 'app'));
  const dir = (await runMemdir(['where'], { cwd: repo, env: cleanEnv(home) })).stdout.trim();
  const { index, files } = pointerIndex(249);
  writeTree(dir, { 'MEMORY.md': index, ...files });

  const before = await askClaude(repo, home);
  expect(before.text).toMatch(/WARNING: MEMORY\.md is 249 lines/);
  expect(before.text).not.toContain('(project_item_248.md)');

  const refactor = await runMemdir(['refactor'], { cwd: repo, env: cleanEnv(home) });
  expect(refactor.code, refactor.stderr).toBe(0);

  const after = await askClaude(repo, home);
  expect(after.text).not.toMatch(/WARNING: MEMORY\.md/);
  // Every topic file is reachable: named in the loaded index, or in a sub-index it names.
  const loadedIndex = after.text.slice(0, after.text.indexOf('# currentDate') === -1 ? undefined : after.text.indexOf('# currentDate'));
  const reachable = new Set<string>();
  for (const [, target] of loadedIndex.matchAll(/\]\(([^)]+)\)/g)) {
    reachable.add(target!);
    const sub = path.join(dir, target!);
    if (target!.startsWith('index_') && fs.existsSync(sub)) for (const [, inner] of fs.readFileSync(sub, 'utf8').matchAll(/\]\(([^)]+)\)/g)) reachable.add(inner!);
  }
  const topicFiles = fs.readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'MEMORY.md' && !f.startsWith('index_'));
  expect(topicFiles).toHaveLength(249);
  expect(topicFiles.filter((f) => !reachable.has(f))).toEqual([]);
});
