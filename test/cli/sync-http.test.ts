import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';
import { startTeamMemoryServer, type TeamMemoryServer } from '../helpers/team-memory-server.js';
import { topic } from '../helpers/team-sync.js';
import { MAX_BODY_BYTES, MAX_ENTRY_BYTES } from '../../src/sync/http-backend.js';
import { expandExample } from '../../src/core/secrets.js';

const REPO = 'acme/widgets';
const TOKEN = 'test-bearer-token-not-a-secret';
let server: TeamMemoryServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(options: { maxEntries?: number } = {}) {
  server = await startTeamMemoryServer({ token: TOKEN, ...options });
  const root = tempDir('memdir-http-');
  const mem = path.join(root, 'memory');
  const team = path.join(mem, 'team');
  fs.mkdirSync(team, { recursive: true });
  const sync = (args: string[] = []) =>
    runMemdir(['sync', '--dir', mem, '--backend', 'http', '--url', server!.url, '--repo', REPO, '--json', ...args], {
      cwd: root,
      env: cleanEnv(root, { MEMDIR_SYNC_TOKEN: TOKEN, MEMDIR_SYNC_BACKOFF_MS: '5' }),
      timeoutMs: 60_000,
    });
  return { root, mem, team, sync, server };
}
const report = (stdout: string) => JSON.parse(stdout) as { retries: number; files: Array<{ file: string; status: string; reason?: string }>; summary: Record<string, number> };
const statusOf = (stdout: string, file: string) => report(stdout).files.find((f) => f.file === file);
const puts = (s: TeamMemoryServer) => s.requests.filter((r) => r.method === 'PUT');

describe('memdir sync --backend http (docs/architecture.md#sync-backends)', () => {
  test('push and pull with per-entry sha256 checksums; bearer token from the environment; unchanged files not re-sent', async () => {
    const { team, sync, server } = await setup();
    writeTree(team, { 'project_a.md': topic('A', 'a'), 'project_b.md': topic('B', 'b') });
    const first = await sync();
    expect(first.code, first.stderr).toBe(0);
    expect(server.entries(REPO).get('project_a.md')).toContain('a');
    expect(server.requests.every((r) => r.auth === `Bearer ${TOKEN}`)).toBe(true);
    expect(server.requests[0]!.url).toContain('view=hashes');
    server.put(REPO, 'project_c.md', topic('C', 'from the server'));
    const second = await sync();
    expect(statusOf(second.stdout, 'project_c.md')?.status).toBe('pulled');
    expect(fs.readFileSync(path.join(team, 'project_c.md'), 'utf8')).toContain('from the server');
    expect(puts(server)).toHaveLength(1);
    expect(second.stdout + second.stderr).not.toContain(TOKEN);
  });

  test("412: refetch the hashes and retry; the other writer's entry is pulled, ours lands", async () => {
    const { team, sync, server } = await setup();
    writeTree(team, { 'project_a.md': topic('A', 'a') });
    expect((await sync()).code).toBe(0);
    writeTree(team, { 'project_mine.md': topic('Mine', 'mine') });
    server.writeBeforeNextPut(REPO, 'project_theirs.md', topic('Theirs', 'theirs'));
    const r = await sync();
    expect(r.code, r.stderr).toBe(0);
    expect(report(r.stdout).retries).toBe(1);
    expect([...server.entries(REPO).keys()].sort()).toEqual(['project_a.md', 'project_mine.md', 'project_theirs.md']);
    expect(fs.existsSync(path.join(team, 'project_theirs.md'))).toBe(true);
  });

  test("413: the server's entry limit is learned from the answer and the push stops cleanly", async () => {
    const { team, sync, server } = await setup({ maxEntries: 2 });
    writeTree(team, { 'project_a.md': topic('A', 'a'), 'project_b.md': topic('B', 'b'), 'project_c.md': topic('C', 'c') });
    const r = await sync();
    expect(r.code, r.stderr).toBe(0);
    expect(report(r.stdout).summary.skipped).toBe(3);
    expect(statusOf(r.stdout, 'project_a.md')?.reason).toMatch(/at most 2 entries/);
    expect(server.entries(REPO).size).toBe(0);
  });

  test('entries over 250,000 bytes are skipped with a reason; PUT bodies stay within 200,000 bytes, in batches', async () => {
    const { team, sync, server } = await setup();
    const files: Record<string, string> = { 'project_huge.md': topic('Huge', 'x'.repeat(MAX_ENTRY_BYTES)) };
    for (let i = 0; i < 12; i++) files[`project_p${i}.md`] = topic(`P${i}`, `${i}`.repeat(40 * 1024));
    writeTree(team, files);
    const r = await sync();
    expect(r.code, r.stderr).toBe(0);
    expect(statusOf(r.stdout, 'project_huge.md')).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/250,000-byte entry limit/) });
    expect(puts(server).length).toBeGreaterThanOrEqual(3);
    for (const put of puts(server)) expect(put.bytes).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(server.entries(REPO).size).toBe(12);
  });

  test('the index sent points only at entries the server holds: a file too large (not taken) or refused keeps its pointer local', async () => {
    const { team, sync, server } = await setup();
    const token = expandExample('ghp_{an:36}');
    const index = '# Team\n- [Ok](project_ok.md) — fine\n- [Huge](project_huge.md) — too large\n- [CI](reference_ci.md) — the token\n';
    writeTree(team, {
      'MEMORY.md': index,
      'project_ok.md': topic('Ok', 'fine'),
      'project_huge.md': topic('Huge', 'x'.repeat(MAX_ENTRY_BYTES)),
      'reference_ci.md': topic('CI', `token ${token}`, 'reference'),
    });
    const r = await sync();
    expect(r.code, r.stderr).toBe(1);
    expect(statusOf(r.stdout, 'MEMORY.md')?.reason).toBe(
      `kept local: pointer to project_huge.md (skipped: ${Buffer.byteLength(topic('Huge', 'x'.repeat(MAX_ENTRY_BYTES))).toLocaleString('en-US')} bytes, over the 250,000-byte entry limit of the HTTP contract; not uploaded (split it)); kept local: pointer to reference_ci.md (refused: github-pat)`,
    );
    expect(server.entries(REPO).get('MEMORY.md')).toBe('# Team\n- [Ok](project_ok.md) — fine\n');
    expect([...server.entries(REPO).keys()].sort()).toEqual(['MEMORY.md', 'project_ok.md']);
    expect(fs.readFileSync(path.join(team, 'MEMORY.md'), 'utf8')).toBe(index);
  });

  test("a file changed on both sides since the last sync is a conflict over HTTP too: yours kept, the server's beside it, not sent", async () => {
    const { root, team, sync, server } = await setup();
    const other = path.join(root, 'other');
    const syncOther = (args: string[] = []) =>
      runMemdir(['sync', '--dir', other, '--backend', 'http', '--url', server.url, '--repo', REPO, '--json', ...args], {
        cwd: root,
        env: cleanEnv(root, { MEMDIR_SYNC_TOKEN: TOKEN, MEMDIR_SYNC_BACKOFF_MS: '5' }),
        timeoutMs: 60_000,
      });
    writeTree(team, { 'project_x.md': topic('X', 'first') });
    expect((await sync()).code).toBe(0);
    expect((await syncOther()).code).toBe(0);
    writeTree(path.join(other, 'team'), { 'project_x.md': topic('X', 'from other') });
    expect((await syncOther()).code).toBe(0);
    writeTree(team, { 'project_x.md': topic('X', 'from here') });
    const r = await sync();
    expect(r.code, r.stderr).toBe(1);
    expect(statusOf(r.stdout, 'project_x.md')?.status).toBe('conflict');
    expect(fs.readFileSync(path.join(team, 'project_x.md'), 'utf8')).toBe(topic('X', 'from here'));
    expect(fs.readFileSync(path.join(team, '.conflicts/project_x.md'), 'utf8')).toBe(topic('X', 'from other'));
    expect(server.entries(REPO).get('project_x.md')).toBe(topic('X', 'from other'));
    const ours = await sync(['--resolve', 'project_x.md', '--ours']);
    expect(ours.code, ours.stderr).toBe(0);
    expect(statusOf((await sync()).stdout, 'project_x.md')?.status).toBe('pushed');
    expect(server.entries(REPO).get('project_x.md')).toBe(topic('X', 'from here'));
  });

  test('5xx answers are retried with backoff; a server that keeps failing is exit 2 with one line naming it', async () => {
    const { team, sync, server } = await setup();
    writeTree(team, { 'project_a.md': topic('A', 'a') });
    server.failNext(2, 503);
    const r = await sync();
    expect(r.code, r.stderr).toBe(0);
    expect(server.entries(REPO).has('project_a.md')).toBe(true);
    server.failNext(10, 502);
    const down = await sync();
    expect(down.code).toBe(2);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
    expect(down.stderr).toContain(server.url);
    expect(down.stderr).toMatch(/HTTP 502/);
  });

  test("Claude Code's shapes: If-Match names the store's checksum in quotes, deletions ride in the first PUT, a server without view=hashes is exit 2", async () => {
    const { team, sync, server } = await setup();
    writeTree(team, { 'project_a.md': topic('A', 'a'), 'project_b.md': topic('B', 'b') });
    expect((await sync()).code).toBe(0);
    expect(puts(server)[0]).toMatchObject({ ifMatch: undefined, softDeleteKeys: [] });
    const hashes = await fetch(`${server.url}/api/claude_code/team_memory?repo=${encodeURIComponent(REPO)}&view=hashes`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const { checksum } = (await hashes.json()) as { checksum: string };
    fs.rmSync(path.join(team, 'project_b.md'));
    writeTree(team, { 'project_c.md': topic('C', 'c') });
    const pruned = await sync(['--prune']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(puts(server)).toHaveLength(2);
    expect(puts(server)[1]).toMatchObject({ ifMatch: `"${checksum}"`, keys: ['project_c.md'], softDeleteKeys: ['project_b.md'] });
    expect([...server.entries(REPO).keys()].sort()).toEqual(['project_a.md', 'project_c.md']);

    server.answerHashesWithout('entryChecksums');
    const old = await sync();
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/did not return entryChecksums \(view=hashes unsupported\)/);
  });
});
