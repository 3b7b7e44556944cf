/**
 * `memdir docs` through the built binary in real git repositories, the claude engine through the
 * real SDK against the fake Messages API: a doc read in a turn is updated, one not read is not, an
 * answer that drops the header, grows the doc tenfold or adds a secret is refused with the doc left
 * byte for byte, --dry-run writes nothing, offline it lists and writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { createRepo } from '../helpers/git-repo.js';
import { memdirOnPath } from '../helpers/claude.js';
import { API_DOC, answer, DEPS_DOC, docsRun, jsonl, read, turnLines, UPDATED_API, type Workspace, workspace } from '../helpers/magic-docs.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir } from '../helpers/temp.js';

describe('memdir docs with the claude engine', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  test('the doc read in the turn is updated from the turn; the doc not read is not, and a second run asks nothing', async () => {
    const ws = await workspace(server);
    server.setDefault(answer({ unchanged: false, text: UPDATED_API }));
    const r = await docsRun(ws, '--json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.engine).toBe('claude');
    const byPath = Object.fromEntries(report.docs.map((d: { path: string }) => [d.path, d]));
    expect(Object.keys(byPath).sort()).toEqual(['docs/api.md', 'docs/deps.md']);
    expect(byPath['docs/api.md']).toMatchObject({ read: true, outcome: 'updated', written: true, instructions: 'One line per endpoint, method and path first.' });
    expect(byPath['docs/deps.md']).toMatchObject({ read: false, outcome: 'not-read' });
    expect(read(ws, 'docs/api.md')).toBe(UPDATED_API);
    expect(read(ws, 'docs/deps.md')).toBe(DEPS_DOC);
    // One structured call, for the one doc read, carrying the doc, its instructions and the turn's facts.
    const calls = server.messages();
    expect(calls).toHaveLength(1);
    const body = calls[0]!.body;
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'magic_doc' });
    expect(body.tools.map((t: { name: string }) => t.name)).toEqual(['magic_doc']);
    const user = body.messages[0].content as string;
    expect(user).toContain(API_DOC);
    expect(user).toContain('Its instructions: One line per endpoint, method and path first.');
    expect(user).toContain('add an endpoint to delete a user');
    expect(user).toContain('[Edit src/api.ts]');
    expect(user).toContain('12 tests passed');
    expect(user).not.toContain(DEPS_DOC);
    // The cursor moved: nothing new, no call.
    const again = await docsRun(ws, '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).newMessages).toBe(0);
    expect(server.messages()).toHaveLength(1);
  });

  test('a doc whose content came through a tool result (cat) counts as read', async () => {
    const ws = await workspace(server, 'docs/none.md');
    const lines = turnLines(ws.root, 'docs/none.md');
    (lines[2]!.message as { content: Array<{ content: string }> }).content[0]!.content = `$ cat docs/deps.md\n${DEPS_DOC}`;
    fs.writeFileSync(ws.transcript, jsonl(lines));
    server.setDefault(answer({ unchanged: true }));
    const r = await docsRun(ws, '--json');
    expect(r.code, r.stderr).toBe(0);
    const docs = JSON.parse(r.stdout).docs;
    expect(docs.find((d: { path: string }) => d.path === 'docs/deps.md')).toMatchObject({ read: true, outcome: 'unchanged' });
    expect(docs.find((d: { path: string }) => d.path === 'docs/api.md')).toMatchObject({ read: false, outcome: 'not-read' });
    expect(read(ws, 'docs/deps.md')).toBe(DEPS_DOC);
  });

  const tenfold = `${API_DOC}${'- GET /padding: more text than the doc ever held\n'.repeat(Math.ceil((9 * API_DOC.length) / 50))}`;
  const ghp = `${'ghp_'}a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8`;
  test.each<[string, unknown, RegExp]>([
    ['drops the header line', { unchanged: false, text: '# API endpoints\n\n- GET /users\n- DELETE /users/:id\n' }, /does not keep the "# MAGIC DOC:" line/],
    ['drops the instructions line', { unchanged: false, text: '# MAGIC DOC: API endpoints\n\n- GET /users\n' }, /does not keep the "# MAGIC DOC:" line and the instructions line/],
    ['grows the doc tenfold', { unchanged: false, text: tenfold }, /more than twice the size/],
    ['adds a secret', { unchanged: false, text: `${API_DOC}- token for the staging API: ${ghp}\n` }, /adds what looks like a secret \(rule github-pat\)/],
    ['is not the schema', { unchanged: false }, /model output is invalid: text is not a string/],
  ])('an answer that %s is refused, the doc left byte for byte', async (_label, input, reason) => {
    const ws = await workspace(server);
    server.setDefault(answer(input));
    const before = fs.statSync(path.join(ws.root, 'docs/api.md'));
    // Text output names the doc and the reason; a dry run moves no cursor, so the run after it sees the same turn.
    const text = await docsRun(ws, '--dry-run');
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(new RegExp(`docs/api\\.md[\\s\\S]*(refused|not updated): .*${reason.source}`));
    const r = await docsRun(ws, '--json');
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout).docs.find((d: { path: string }) => d.path === 'docs/api.md');
    expect(doc.outcome).toMatch(/refused|failed/);
    expect(doc.reason).toMatch(reason);
    expect(doc.written).toBeUndefined();
    expect(read(ws, 'docs/api.md')).toBe(API_DOC);
    expect(fs.statSync(path.join(ws.root, 'docs/api.md')).mtimeMs).toBe(before.mtimeMs);
    expect(r.stdout).not.toContain(ghp);
  });

  test('--dry-run prints the unified diff and writes nothing, not even the cursor', async () => {
    const ws = await workspace(server);
    server.setDefault(answer({ unchanged: false, text: UPDATED_API }));
    for (let i = 0; i < 2; i++) {
      const r = await docsRun(ws, '--dry-run');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('would update (+1 −0 lines)');
      expect(r.stdout).toContain('--- a/docs/api.md\n+++ b/docs/api.md');
      expect(r.stdout).toContain('+- DELETE /users/:id: remove a user');
    }
    expect(server.messages()).toHaveLength(2);
    expect(read(ws, 'docs/api.md')).toBe(API_DOC);
    expect(fs.existsSync(ws.dir)).toBe(false);
    expect((await simpleGit(ws.root).status()).isClean()).toBe(true);
  });

  test('a read-only doc is left as it is, named with the reason; the other doc read still gets its update', async () => {
    const ws = await workspace(server);
    const lines = turnLines(ws.root, 'docs/api.md');
    (lines[2]!.message as { content: Array<{ content: string }> }).content[0]!.content = `1\u2192${API_DOC}\n$ cat docs/deps.md\n${DEPS_DOC}`;
    fs.writeFileSync(ws.transcript, jsonl(lines));
    fs.chmodSync(path.join(ws.root, 'docs/api.md'), 0o444);
    server.setDefault((request) => answer({ unchanged: false, text: request.text.includes('The doc, docs/deps.md') ? `${DEPS_DOC}| diff | diffs |\n` : UPDATED_API }));
    const r = await docsRun(ws, '--json');
    expect(r.code, r.stderr).toBe(1);
    const docs = JSON.parse(r.stdout).docs;
    expect(docs.find((d: { path: string }) => d.path === 'docs/api.md')).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/read-only \(mode 0444\)/) });
    expect(docs.find((d: { path: string }) => d.path === 'docs/deps.md')).toMatchObject({ outcome: 'updated', written: true });
    expect(read(ws, 'docs/api.md')).toBe(API_DOC);
    expect(read(ws, 'docs/deps.md')).toBe(`${DEPS_DOC}| diff | diffs |\n`);
  });

  test('one run asks about ten docs at most; the rest are named as not tried', async () => {
    const ws = await workspace(server);
    const headers: string[] = [];
    for (let i = 0; i < 11; i++) {
      fs.writeFileSync(path.join(ws.root, `docs/n${String(i).padStart(2, '0')}.md`), `# MAGIC DOC: Note ${i}\n`);
      headers.push(`# MAGIC DOC: Note ${i}`);
    }
    const lines = turnLines(ws.root, 'docs/none.md');
    (lines[2]!.message as { content: Array<{ content: string }> }).content[0]!.content = headers.join('\n');
    fs.writeFileSync(ws.transcript, jsonl(lines));
    server.setDefault(answer({ unchanged: true }));
    const before = server.messages().length;
    const r = await docsRun(ws, '--json', '--dry-run');
    expect(r.code).toBe(1);
    const docs = JSON.parse(r.stdout).docs.filter((d: { read: boolean }) => d.read);
    expect(docs).toHaveLength(11);
    expect(docs.filter((d: { outcome: string }) => d.outcome === 'unchanged')).toHaveLength(10);
    expect(docs.filter((d: { outcome: string; reason?: string }) => d.outcome === 'failed' && /more docs than the 10 one run updates/.test(d.reason ?? ''))).toHaveLength(1);
    expect(server.messages().length - before).toBe(10);
  });

  test('a CRLF doc answered in LF keeps its line endings; the model call failing leaves the doc and the cursor', async () => {
    const ws = await workspace(server);
    fs.writeFileSync(path.join(ws.root, 'docs/api.md'), API_DOC.replace(/\n/g, '\r\n'));
    server.setDefault({ status: 500, error: { type: 'api_error', message: 'Internal server error' } });
    const failed = await docsRun(ws, '--json');
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).docs[0]).toMatchObject({ path: 'docs/api.md', outcome: 'failed', reason: expect.stringMatching(/HTTP 500/) });
    server.setDefault(answer({ unchanged: false, text: UPDATED_API }));
    const r = await docsRun(ws, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(read(ws, 'docs/api.md')).toBe(UPDATED_API.replace(/\n/g, '\r\n'));
  });
});

describe('memdir docs offline and on bad input', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(() => server.close());

  test('without a key: lists the docs and what the session touched that concerns each, writes nothing, calls nothing', async () => {
    const ws = await workspace(server);
    const { ANTHROPIC_API_KEY: _key, ...env } = ws.env;
    fs.appendFileSync(path.join(ws.root, 'docs/api.md'), '\nServed from src/api.ts; checked by npm test.\n');
    const before = fs.readFileSync(path.join(ws.root, 'docs/api.md'));
    const r = await runMemdir(['docs', '--from', ws.transcript, '--dir', ws.dir], { cwd: ws.root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('docs/api.md  API endpoints  (read in the new part of the transcript)');
    expect(r.stdout).toContain('  edited src/api.ts (named in the doc)');
    expect(r.stdout).toContain('  ran npm test (named in the doc)');
    expect(r.stdout).toContain('docs/deps.md  Dependencies\n');
    expect(r.stderr).toMatch(/nothing written \(local engine/);
    expect(fs.readFileSync(path.join(ws.root, 'docs/api.md'))).toEqual(before);
    expect(fs.existsSync(ws.dir)).toBe(false);
    expect(server.messages()).toHaveLength(0);
    const json = JSON.parse((await runMemdir(['docs', '--from', ws.transcript, '--dir', ws.dir, '--json', '--engine', 'local'], { cwd: ws.root, env: ws.env })).stdout);
    expect(json.engine).toBe('local');
    expect(json.docs.map((d: { outcome: string }) => d.outcome)).toEqual(['listed', 'listed']);
    expect(server.messages()).toHaveLength(0);
  });

  test('a title or instructions line with terminal escapes is listed with them escaped', async () => {
    const ws = await workspace(server);
    const { ANTHROPIC_API_KEY: _key, ...env } = ws.env;
    fs.writeFileSync(path.join(ws.root, 'docs/esc.md'), '# MAGIC DOC: Colors \u001b[31mred\u001b[0m\n_keep \u202eit\u202c short_\n');
    const r = await runMemdir(['docs', '--from', ws.transcript, '--dir', ws.dir], { cwd: ws.root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('docs/esc.md  Colors \\u001b[31mred\\u001b[0m\n');
    expect(r.stdout).toContain('  instructions: keep \\u202eit\\u202c short');
    expect(r.stdout).not.toMatch(/[\u001b\u202e]/);
  });

  test('.gitignore is respected, an untracked doc not ignored is found, a nested plain .md is not a doc', async () => {
    const ws = await workspace(server);
    fs.writeFileSync(path.join(ws.root, '.gitignore'), 'build/\n');
    fs.mkdirSync(path.join(ws.root, 'build'));
    fs.writeFileSync(path.join(ws.root, 'build/out.md'), '# MAGIC DOC: Build output\n');
    fs.writeFileSync(path.join(ws.root, 'NEW.md'), '\uFEFF# MAGIC DOC: New doc\r\n*Keep it short.*\r\n');
    const r = await runMemdir(['docs', '--json'], { cwd: path.join(ws.root, 'src'), env: cleanEnv(ws.home) });
    expect(r.code, r.stderr).toBe(0);
    const docs = JSON.parse(r.stdout).docs;
    expect(docs.map((d: { path: string }) => d.path).sort()).toEqual(['NEW.md', 'docs/api.md', 'docs/deps.md']);
    expect(docs.find((d: { path: string }) => d.path === 'NEW.md')).toMatchObject({ title: 'New doc', instructions: 'Keep it short.' });
  });

  test('a symlink doc and a binary doc are skipped with their reason; a model answer never reaches through the link', async () => {
    const ws = await workspace(server, 'docs/linked.md');
    const outside = path.join(path.dirname(ws.root), 'outside.md');
    fs.writeFileSync(outside, '# MAGIC DOC: Outside\n');
    fs.symlinkSync(outside, path.join(ws.root, 'docs/linked.md'));
    fs.writeFileSync(path.join(ws.root, 'docs/binary.md'), Buffer.concat([Buffer.from('# MAGIC DOC: Binary\n'), Buffer.from([0, 1, 2, 0xff])]));
    fs.writeFileSync(path.join(ws.root, 'docs/huge.md'), `# MAGIC DOC: Huge\n${'x'.repeat(300 * 1024)}\n`);
    // A tracked doc whose folder is then swapped for a link to a folder outside the repository.
    fs.mkdirSync(path.join(ws.root, 'notes'));
    fs.writeFileSync(path.join(ws.root, 'notes/plan.md'), '# MAGIC DOC: Plan\n');
    await simpleGit(ws.root).add('.').commit('links');
    const away = path.join(path.dirname(ws.root), 'away');
    fs.mkdirSync(away);
    fs.writeFileSync(path.join(away, 'plan.md'), '# MAGIC DOC: Plan\n');
    fs.rmSync(path.join(ws.root, 'notes'), { recursive: true });
    fs.symlinkSync(away, path.join(ws.root, 'notes'));
    server.setDefault(answer({ unchanged: false, text: '# MAGIC DOC: Outside\nrewritten\n' }));
    const r = await runMemdir(['docs', '--from', ws.transcript, '--dir', ws.dir, '--json'], { cwd: ws.root, env: ws.env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.docs.map((d: { path: string }) => d.path).sort()).toEqual(['docs/api.md', 'docs/deps.md']);
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { path: 'docs/linked.md', reason: expect.stringMatching(/symbolic link/) },
        { path: 'docs/binary.md', reason: expect.stringMatching(/binary file/) },
        { path: 'docs/huge.md', reason: expect.stringMatching(/over the 256 KB limit/) },
        { path: 'notes/plan.md', reason: expect.stringMatching(/leaves the repository/) },
      ]),
    );
    expect(r.stderr).toMatch(/memdir docs: skipped docs\/linked\.md: a symbolic link/);
    expect(fs.readFileSync(outside, 'utf8')).toBe('# MAGIC DOC: Outside\n');
    expect(fs.readFileSync(path.join(away, 'plan.md'), 'utf8')).toBe('# MAGIC DOC: Plan\n');
    expect(server.messages().filter((m) => m.text.includes('Outside'))).toHaveLength(0);
  });

  test('malformed transcript lines are skipped; a file with no transcript line is refused in one line (exit 2)', async () => {
    const ws = await workspace(server);
    server.setDefault(answer({ unchanged: true }));
    fs.writeFileSync(ws.transcript, `not json\n{"no":"type"}\n${jsonl(turnLines(ws.root, 'docs/api.md'))}{"type":"user","uuid":"cut`);
    const r = await docsRun(ws, '--json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.lines).toEqual({ read: 8, malformed: 3 });
    expect(report.docs.find((d: { path: string }) => d.path === 'docs/api.md')).toMatchObject({ read: true, outcome: 'unchanged' });
    const junk = path.join(path.dirname(ws.transcript), 'junk.jsonl');
    fs.writeFileSync(junk, 'hello\nworld\n');
    const bad = await runMemdir(['docs', '--from', junk, '--dir', ws.dir], { cwd: ws.root, env: ws.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain(`${junk}: not a Claude Code transcript`);
    expect(read(ws, 'docs/api.md')).toBe(API_DOC);
  });

  test('outside a git repository: one line, exit 2', async () => {
    const top = tempDir('memdir-docs-nogit-');
    const r = await runMemdir(['docs'], { cwd: top, env: cleanEnv(path.join(top, 'home')) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not inside a git repository/);
  });
});

describe('memdir docs --hook', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(() => server.close());

  const stopInput = (ws: Workspace) => JSON.stringify({ session_id: 'sess-docs', transcript_path: ws.transcript, cwd: ws.root, hook_event_name: 'Stop', stop_hook_active: false });

  test('answers at once and updates the doc in a detached run', async () => {
    const ws = await workspace(server);
    server.setDefault(answer({ unchanged: false, text: UPDATED_API }));
    // The full CLI this time (the fast path does not read --json); the idle run below takes the fast path.
    const r = await runMemdir(['docs', '--hook', '--dir', ws.dir, '--json'], { cwd: ws.root, env: ws.env, input: stopInput(ws) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const deadline = Date.now() + 15_000;
    while (read(ws, 'docs/api.md') !== UPDATED_API && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    expect(read(ws, 'docs/api.md')).toBe(UPDATED_API);
    expect(read(ws, 'docs/deps.md')).toBe(DEPS_DOC);
    // The cursor is written after the doc: wait for it, then a second Stop with nothing new starts nothing.
    const cursor = path.join(ws.dir, '.memdir/docs/sessions/sess-docs.json');
    while (!fs.existsSync(cursor) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    expect(fs.readFileSync(path.join(ws.dir, '.memdir/docs.log'), 'utf8')).toContain('memdir docs: updating docs/api.md');
    const calls = server.messages().length;
    const again = await runMemdir(['docs', '--hook', '--dir', ws.dir], { cwd: ws.root, env: ws.env, input: stopInput(ws) });
    expect(again.code).toBe(0);
    await new Promise((done) => setTimeout(done, 1_000));
    expect(server.messages()).toHaveLength(calls);
  });

  test('outside a git repository it starts nothing', async () => {
    const ws = await workspace(server);
    const elsewhere = tempDir('memdir-docs-nogit-');
    const input = JSON.stringify({ session_id: 'sess-docs', transcript_path: ws.transcript, cwd: elsewhere, hook_event_name: 'Stop' });
    const r = await runMemdir(['docs', '--hook', '--dir', ws.dir], { cwd: elsewhere, env: ws.env, input });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(fs.existsSync(path.join(ws.dir, '.memdir/docs.log'))).toBe(false);
  });

  test('without a key it starts nothing and writes nothing; bad input is one stderr line and exit 0', async () => {
    const ws = await workspace(server);
    const { ANTHROPIC_API_KEY: _key, ...env } = ws.env;
    const r = await runMemdir(['docs', '--hook', '--dir', ws.dir], { cwd: ws.root, env, input: stopInput(ws) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(fs.existsSync(ws.dir)).toBe(false);
    // The fast path and the full CLI (an option the fast path does not read) answer alike.
    const [fast, full] = await Promise.all([[], ['--json']].map((extra) => runMemdir(['docs', '--hook', '--dir', ws.dir, ...extra], { cwd: ws.root, env: ws.env, input: 'not json' })));
    for (const bad of [fast!, full!]) {
      expect(bad.code).toBe(0);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toBe('memdir docs hook skipped: hook input on stdin is not a JSON object\n');
    }
    expect(read(ws, 'docs/api.md')).toBe(API_DOC);
  });
});

describe('hooks install --with-docs', () => {
  const hooks = (args: string[], cwd: string, home: string, extra: NodeJS.ProcessEnv = {}) =>
    runMemdir(['hooks', ...args], { cwd, env: cleanEnv(home, { PATH: `${memdirOnPath()}:${process.env.PATH}`, ...extra }) });

  test('off by default; with it, Stop runs extract, session, then docs; status lists it; uninstall takes both out, byte for byte', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const home = tempDir();
    const settingsFile = path.join(repo, '.claude/settings.local.json');
    const plain = await hooks(['install', '--claude'], repo, home);
    expect(plain.code, plain.stderr).toBe(0);
    const stop = () => JSON.parse(fs.readFileSync(settingsFile, 'utf8')).hooks.Stop.map((g: { hooks: Array<{ command: string }> }) => g.hooks[0]!.command);
    expect(stop()).toEqual(['memdir extract --hook', 'memdir session --hook']);
    await hooks(['uninstall', '--claude'], repo, home);
    const before = snapshotTree(path.join(repo, '.claude'));

    const withDocs = await hooks(['install', '--claude', '--with-docs', '--json'], repo, home);
    expect(withDocs.code, withDocs.stderr).toBe(0);
    expect(withDocs.stderr).toMatch(/docs --hook updates Magic Docs only when ANTHROPIC_API_KEY is set/);
    expect(stop()).toEqual(['memdir extract --hook', 'memdir session --hook', 'memdir docs --hook']);
    const installed = snapshotTree(path.join(repo, '.claude'));
    const again = await hooks(['install', '--claude', '--with-docs'], repo, home, { ANTHROPIC_API_KEY: 'sk-ant-test' });
    expect(again.stderr).not.toMatch(/ANTHROPIC_API_KEY/);
    expect(snapshotTree(path.join(repo, '.claude'))).toEqual(installed);

    const status = JSON.parse((await hooks(['status', '--claude', '--json'], repo, home)).stdout);
    expect(status.hooks.filter((h: { hook: string }) => h.hook.startsWith('Claude Code Stop')).map((h: { command: string; owner: string }) => [h.command, h.owner])).toEqual([
      ['memdir extract --hook', 'memdir'],
      ['memdir session --hook', 'memdir'],
      ['memdir docs --hook', 'memdir'],
    ]);
    const removed = await hooks(['uninstall', '--claude'], repo, home);
    expect(removed.code, removed.stderr).toBe(0);
    expect(snapshotTree(path.join(repo, '.claude'))).toEqual(before);
  });
});
