import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadedMemory } from '../helpers/agent-request.js';
import { runClaude } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { addWorktree, createRepo } from '../helpers/git-repo.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/**
 * Claude Code is the oracle (docs/architecture.md#directory-resolution, docs/architecture.md#testing-against-claude-code): a memory saved where
 * `memdir where` says must be the one a real `claude -p` loads.
 */
let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

async function memdir(args: string[], cwd: string, home: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const r = await runMemdir(args, { cwd, env: cleanEnv(home, extraEnv) });
  expect(r.code, r.stderr).toBe(0);
  return r;
}

/** Save a uniquely worded memory with memdir, run claude, return what the agent loaded. */
async function saveThenAsk(options: { saveFrom: string; askFrom: string; home: string; memdirArgs?: string[]; env?: NodeJS.ProcessEnv }) {
  const marker = `marker-${Math.random().toString(36).slice(2, 10)}`;
  await memdir(
    ['save', '--type', 'project', '--name', `Freeze ${marker}`, '--description', `Merge freeze ${marker} until 2026-03-05`, '--body', 'No merges.', ...(options.memdirArgs ?? [])],
    options.saveFrom,
    options.home,
    options.env,
  );
  const where = (await memdir(['where', ...(options.memdirArgs ?? [])], options.askFrom, options.home, options.env)).stdout.trim();
  const before = server.requests.length;
  const claude = await runClaude({ cwd: options.askFrom, home: options.home, baseUrl: server.url, prompt: 'What do you remember?', env: options.env });
  expect(claude.code, claude.stderr).toBe(0);
  const loaded = loadedMemory(server.requests.slice(before));
  return { marker, where, loaded };
}

describe('memdir where and Claude Code agree', () => {
  test('a memory saved in a repository is loaded by claude -p, from the directory memdir names', async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const { marker, where, loaded } = await saveThenAsk({ saveFrom: repo, askFrom: repo, home });
    expect(loaded?.dir).toBe(where);
    expect(loaded?.text).toContain(`- [Freeze ${marker}](project_freeze_${marker.replace('-', '_')}.md) — Merge freeze ${marker} until 2026-03-05`);
  });

  test('from a linked worktree: same directory as the main checkout', async () => {
    const home = tempDir();
    const root = tempDir();
    const repo = await createRepo(path.join(root, 'app'));
    const worktree = await addWorktree(repo, path.join(root, 'app-feature'));
    const fromMain = (await memdir(['where'], repo, home)).stdout.trim();
    const { marker, where, loaded } = await saveThenAsk({ saveFrom: worktree, askFrom: worktree, home });
    expect(where).toBe(fromMain);
    expect(loaded?.dir).toBe(where);
    expect(loaded?.text).toContain(marker);
  });

  test('a repository path with dots, spaces and non-ASCII characters', async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'my.repo with space-é'));
    const { marker, where, loaded } = await saveThenAsk({ saveFrom: repo, askFrom: path.join(repo), home });
    expect(path.basename(path.dirname(where))).toMatch(/-my-repo-with-space--$/);
    expect(loaded?.dir).toBe(where);
    expect(loaded?.text).toContain(marker);
  });

  test('a repository path longer than 200 characters (hashed name)', async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), ...Array.from({ length: 12 }, (_, i) => `nested-folder-level-${i}`), 'repo'));
    const { marker, where, loaded } = await saveThenAsk({ saveFrom: repo, askFrom: repo, home });
    expect(path.basename(path.dirname(where)).length).toBeGreaterThan(200);
    expect(loaded?.dir).toBe(where);
    expect(loaded?.text).toContain(marker);
  });
});

describe('autoMemoryDirectory settings', () => {
  test('.claude/settings.local.json is honoured by both', async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(repo, { '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: '~/shared-memory' }) });
    const { marker, where, loaded } = await saveThenAsk({ saveFrom: repo, askFrom: repo, home });
    expect(where).toBe(path.join(home, 'shared-memory'));
    expect(loaded?.dir).toBe(where);
    expect(loaded?.text).toContain(marker);
  });

  test('~/.claude/settings.json is honoured by both', async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(home, { '.claude/settings.json': JSON.stringify({ autoMemoryDirectory: '~/user-memory' }) });
    const { marker, where, loaded } = await saveThenAsk({ saveFrom: repo, askFrom: repo, home });
    expect(where).toBe(path.join(home, 'user-memory'));
    expect(loaded?.dir).toBe(where);
    expect(loaded?.text).toContain(marker);
  });

  test('committed .claude/settings.json: memdir refuses it unless trusted; with the opt-in both agree', async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(repo, { '.claude/settings.json': JSON.stringify({ autoMemoryDirectory: '~/committed-memory' }) });
    const untrusted = await runMemdir(['where'], { cwd: repo, env: cleanEnv(home) });
    expect(untrusted.stdout.trim()).not.toBe(path.join(home, 'committed-memory'));
    expect(untrusted.stderr).toMatch(/ignoring autoMemoryDirectory/);
    // Claude Code 2.1.197 in -p mode honours the committed setting; memdir matches it only on opt-in.
    const { marker, where, loaded } = await saveThenAsk({ saveFrom: repo, askFrom: repo, home, memdirArgs: ['--trust-project-settings'] });
    expect(where).toBe(path.join(home, 'committed-memory'));
    expect(loaded?.dir).toBe(where);
    expect(loaded?.text).toContain(marker);
  });
});

describe('SessionStart hook', () => {
  test('memdir context --hook output reaches the model', async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(repo, {
      '.claude/settings.json': JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'memdir context --hook' }] }] },
      }),
    });
    await memdir(['save', '--type', 'user', '--name', 'Role', '--description', 'User is a data engineer on the billing team', '--body', 'Data engineer.'], repo, home);
    const before = server.requests.length;
    const claude = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'hello' });
    expect(claude.code, claude.stderr).toBe(0);
    const texts = server.requests.slice(before).map((r) => r.text);
    expect(texts.some((t) => t.includes('You have a persistent, file-based memory at'))).toBe(true);
  });
});

describe('load-time truncation matches what the agent loads', () => {
  async function compare(indexLines: string[]) {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const dir = (await memdir(['where'], repo, home)).stdout.trim();
    writeTree(dir, { 'MEMORY.md': `${indexLines.join('\n')}\n` });
    const context = JSON.parse((await memdir(['context', '--json'], repo, home)).stdout);
    const before = server.requests.length;
    const claude = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'hello' });
    expect(claude.code, claude.stderr).toBe(0);
    const loaded = loadedMemory(server.requests.slice(before))!;
    // Whole lines: a later release's warning quotes the first line it cut.
    const loadedLines = new Set(loaded.text.split('\n'));
    const contextLines = new Set(context.indexContent.split('\n'));
    const seen = indexLines.filter((line) => loadedLines.has(line));
    const kept = indexLines.filter((line) => contextLines.has(line));
    return { context, loaded, seen, kept };
  }

  test('a 249-line index: the same 200 pointers, and a warning in both', async () => {
    const lines = Array.from({ length: 249 }, (_, i) => `- [Memory ${i}](project_m${i}.md) — hook number ${i}`);
    const { context, loaded, seen, kept } = await compare(lines);
    expect(context.wasLineTruncated).toBe(true);
    expect(seen).toEqual(lines.slice(0, 200));
    expect(kept).toEqual(seen);
    expect(loaded.text).toMatch(/WARNING: MEMORY\.md is 249 lines/);
  });

  test('CJK text is measured in characters, as the agent measures it', async () => {
    // 180 lines × ~130 characters: ~23,000 characters but ~60,000 UTF-8 bytes.
    const lines = Array.from({ length: 180 }, (_, i) => `- [记忆 ${i}](project_m${i}.md) — ${'合并冻结期间不要合并移动端分支'.repeat(7)} ${i}`);
    const { context, seen, kept } = await compare(lines);
    expect(context.wasByteTruncated).toBe(false);
    expect(seen).toEqual(lines);
    expect(kept).toEqual(seen);
  });

  test('a long index is cut at the same line', async () => {
    const lines = Array.from({ length: 150 }, (_, i) => `- [Memory ${i}](project_m${i}.md) — ${'detail '.repeat(30)}${i}`);
    const { context, seen, kept } = await compare(lines);
    expect(context.wasByteTruncated).toBe(true);
    expect(seen.length).toBeLessThan(150);
    expect(kept).toEqual(seen);
  });
});
