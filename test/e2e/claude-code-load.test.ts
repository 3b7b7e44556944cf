import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ClaudeCodeRelease, indexTextAsLoaded, loadIndex } from '../../src/core/load-model.js';
import { loadedIndexText } from '../helpers/agent-request.js';
import { claudeReleases, runClaude } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { LOAD_CASES } from '../helpers/load-cases.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The load model against the real thing: for every shape of MEMORY.md, what each pinned Claude
 * Code release put in its request is exactly what loadIndex says it loads.
 */
let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

/** What `release` loads of an index holding `text` (undefined: it loaded none). */
async function loadedBy(release: ClaudeCodeRelease, text: string | Buffer): Promise<string | undefined> {
  const dir = path.join(tempDir(), 'memory');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'MEMORY.md'), text);
  const marker = `probe-${Math.random().toString(36).slice(2)}`;
  const claude = await runClaude({ release, cwd: tempDir(), home: tempDir(), baseUrl: server.url, prompt: marker, env: { CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: dir } });
  expect(claude.code, claude.stderr).toBe(0);
  return loadedIndexText(server.requests.filter((r) => r.text.includes(marker)));
}

describe.each(claudeReleases)('Claude Code %s loads MEMORY.md as the load model says', (release) => {
  test(`${Object.keys(LOAD_CASES).length} shapes: frontmatter, comments, CRLF, BOM, limits`, async () => {
    const wrong: string[] = [];
    // One claude process at a time: on two cores, running several makes each slower than waiting.
    for (const [name, text] of Object.entries(LOAD_CASES)) {
      const loaded = await loadedBy(release, text);
      const model = loadIndex(text, release);
      const expected = model.loaded === '' ? undefined : model.content;
      if (loaded !== expected) wrong.push(`${name}:\n  claude: ${JSON.stringify(loaded?.slice(-300))}\n  memdir: ${JSON.stringify(expected?.slice(-300))}`);
    }
    expect(wrong).toEqual([]);
  }, 300_000);
});

const UTF16_TEXT = '- [Deploy](project_deploy.md) — deploys go out on Tuesdays ü 日本\n- [Two](project_two.md) — second\n';
const UTF16_CASES: Record<string, Buffer> = {
  'UTF-16LE with BOM': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(UTF16_TEXT, 'utf16le')]),
  'UTF-16BE with BOM': Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(UTF16_TEXT, 'utf16le').swap16()]),
  'UTF-16LE without BOM': Buffer.from(UTF16_TEXT, 'utf16le'),
  'Latin-1': Buffer.from('- [Café](project_cafe.md) — the café\n', 'latin1'),
};

describe.each(claudeReleases)('Claude Code %s reads MEMORY.md as UTF-8 bytes, whatever its encoding', (release) => {
  test('a UTF-16 index, BOM or not, loads as mojibake; a Latin-1 byte as U+FFFD: the load model says the same', async () => {
    const wrong: string[] = [];
    for (const [name, bytes] of Object.entries(UTF16_CASES)) {
      const loaded = await loadedBy(release, bytes);
      const expected = loadIndex(indexTextAsLoaded(bytes), release).content;
      if (loaded !== expected) wrong.push(`${name}:\n  claude: ${JSON.stringify(loaded)}\n  memdir: ${JSON.stringify(expected)}`);
      // Not the text a UTF-16 decoder reads: the dash, ü and 日本 are lost (2.1.197 keeps every NUL between the letters too).
      if (name.startsWith('UTF-16')) expect([loaded?.includes('— deploys'), loaded?.includes('日本')]).toEqual([false, false]);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});

test('a UTF-16 index: memdir context gives what the latest release loads; doctor counts that and warns', async () => {
  const home = tempDir();
  const dir = path.join(tempDir(), 'memory');
  fs.mkdirSync(dir);
  const bytes = UTF16_CASES['UTF-16LE with BOM']!;
  fs.writeFileSync(path.join(dir, 'MEMORY.md'), bytes);
  const loaded = await loadedBy('latest', bytes);
  const context = JSON.parse((await runMemdir(['context', '--json', '--dir', dir], { cwd: home, env: cleanEnv(home) })).stdout);
  expect(context.indexContent).toBe(loaded);
  const doctor = JSON.parse((await runMemdir(['doctor', '--json', '--dir', dir], { cwd: home, env: cleanEnv(home) })).stdout) as { findings: { id: string; evidence: Record<string, unknown> }[] };
  const found = Object.fromEntries(doctor.findings.filter((f) => f.id.startsWith('index-')).map((f) => [f.id, f.evidence]));
  expect(found['index-encoding']).toEqual({ file: path.join(dir, 'MEMORY.md'), encoding: 'UTF-16LE' });
  const model = loadIndex(indexTextAsLoaded(bytes));
  expect(found['index-loaded']).toMatchObject({ lines: model.loadedLines, characters: model.loaded.length });
});

test('memdir context and lint count what the latest release loads: frontmatter and a comment do not use up lines', async () => {
  const home = tempDir();
  const dir = path.join(tempDir(), 'memory');
  fs.mkdirSync(dir);
  const text = LOAD_CASES['frontmatter, a comment and 204 pointers']!;
  fs.writeFileSync(path.join(dir, 'MEMORY.md'), text);
  const loaded = await loadedBy('latest', text);
  const context = JSON.parse((await runMemdir(['context', '--json', '--dir', dir], { cwd: home, env: cleanEnv(home) })).stdout);
  expect(context.indexContent).toBe(loaded);
  const lint = await runMemdir(['lint', '--format', 'json', '--dir', dir], { cwd: home, env: cleanEnv(home) });
  const cut = JSON.parse(lint.stdout).results[0].messages.find((m: { ruleId: string }) => m.ruleId === 'MEM002');
  // 4 frontmatter lines and the comment come first: the cut is after pointer 199, on file line 206.
  expect(cut).toMatchObject({ line: 206 });
  expect(cut.message).toContain('(4 pointers)');
});
