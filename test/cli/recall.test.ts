import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

const topic = (name: string, description: string, type: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${body}\n`;

function workspace() {
  const root = tempDir();
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  fs.mkdirSync(project, { recursive: true });
  const dir = path.join(home, '.claude/projects', project.replace(/[^a-zA-Z0-9]/g, '-'), 'memory');
  writeTree(dir, {
    'MEMORY.md': '- [Merge freeze](project_freeze.md) — no merges to main until 2026-03-05\n',
    'project_freeze.md': topic(
      'Merge freeze',
      'No merges to main during the mobile release freeze until 2026-03-05',
      'project',
      'Freeze from 2026-02-26 to 2026-03-05.\n\n**Why:** release branch.\n**How to apply:** hold merges.',
    ),
    'feedback_terse.md': topic('Terse replies', 'User wants no recap at the end of responses', 'feedback', 'No summary.'),
    'reference_grafana.md': topic('Grafana', 'API latency dashboard on-call watches during deploys', 'reference', 'Board api-latency.'),
  });
  const old = new Date(Date.now() - 40 * 86_400_000);
  fs.utimesSync(path.join(dir, 'reference_grafana.md'), old, old);
  return { root, home, project, dir, env: cleanEnv(home) };
}

describe('memdir recall', () => {
  test('--recent-tools: a how-to memory about a tool in use is demoted, a warning about it is not (read from the files, cold and from the index)', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, {
      'reference_psql.md': topic('psql usage', 'How to use psql against the staging database', 'reference', 'psql -h staging.internal app'),
      'feedback_psql.md': topic('psql gotcha', 'Never run psql against production without a transaction', 'feedback', 'Wrap every session in BEGIN.'),
      // The tool is named only by a frontmatter key of its own: not the memory's words, so not demoted.
      'reference_db.md': '---\nname: Database usage\ndescription: How to reach the database against staging\ntype: reference\ncli: psql\n---\n\nAsk ops for access.\n',
    });
    // Words only: the demotion is a factor on the word ranking's score (the sentence model's part is not demoted).
    const scores = async (args: string[]) => {
      const r = await runMemdir(['recall', '--json', '--no-semantic', ...args, 'psql against the database'], { cwd: project, env });
      return Object.fromEntries(JSON.parse(r.stdout).selected.map((m: { path: string; score: number }) => [m.path, m.score]));
    };
    const plain = await scores([]);
    for (let run = 0; run < 2; run++) {
      const inUse = await scores(['--recent-tools', 'Bash,psql']);
      expect(inUse['reference_psql.md']).toBeCloseTo(plain['reference_psql.md'] * 0.3, 2);
      expect(inUse['feedback_psql.md']).toBe(plain['feedback_psql.md']);
      expect(inUse['reference_db.md']).toBe(plain['reference_db.md']);
    }
    expect(fs.existsSync(path.join(dir, '.memdir/recall-index.jsonl'))).toBe(true);
  });
  test('prints the matching memory with its header; --json lists scores', async () => {
    const { project, dir, env } = workspace();
    const r = await runMemdir(['recall', 'can I merge the mobile branch this week?'], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Memory (saved today): ${path.join(dir, 'project_freeze.md')}:\n---\nname: Merge freeze`);
    const json = JSON.parse((await runMemdir(['recall', '--json', 'latency dashboard'], { cwd: project, env })).stdout);
    expect(json).toMatchObject({
      engine: 'local',
      selected: [{ path: 'reference_grafana.md', score: expect.any(Number) }],
      confidence: { coverage: { all: 1, known: 1, words: 2 }, confident: true },
    });
    const old = await runMemdir(['recall', 'latency dashboard'], { cwd: project, env });
    expect(old.stdout).toMatch(/^This memory is 40 days old\./);
  });

  test('a topic file it cannot read is named on stderr and in --json, from the index too; a UTF-16 one is shown without its byte-order mark', async () => {
    const { project, dir, env } = workspace();
    fs.writeFileSync(path.join(dir, 'project_cafe.md'), Buffer.from('---\nname: Caf\xe9 deploys\ndescription: The caf\xe9 service deploys on Fridays\ntype: project\n---\nFridays.\n', 'latin1'));
    const kiosk = topic('Kiosk board', 'Where the kiosk deploy dashboard lives', 'reference', 'Grafana, board kiosk.');
    fs.writeFileSync(path.join(dir, 'reference_kiosk.md'), Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(kiosk, 'utf16le').swap16()]));
    const leftOut = 'memdir recall: project_cafe.md left out: not valid UTF-8 text (byte 0xE9 on line 2); memdir leaves it alone\n';
    for (let run = 0; run < 2; run++) {
      const r = await runMemdir(['recall', '--limit', '1', 'kiosk deploy dashboard'], { cwd: project, env });
      expect([r.code, r.stderr]).toEqual([0, leftOut]);
      expect(r.stdout).toBe(`Memory (saved today): ${path.join(dir, 'reference_kiosk.md')}:\n${kiosk.trimEnd()}\n`);
    }
    const json = JSON.parse((await runMemdir(['recall', '--json', 'kiosk deploy dashboard'], { cwd: project, env })).stdout);
    expect(json.unreadable).toEqual([{ path: 'project_cafe.md', problem: 'not valid UTF-8 text (byte 0xE9 on line 2); memdir leaves it alone' }]);
  });

  test('a Thai memory is found by a Thai question: Thai is cut into words, vowel and tone marks inside them', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'feedback_thai.md': topic('ตอบเป็นภาษาไทย', 'ผู้ใช้ต้องการให้ตอบเป็นภาษาไทยเท่านั้น', 'feedback', 'จากนี้ไปให้ตอบเป็นภาษาไทยเท่านั้น') });
    const json = JSON.parse((await runMemdir(['recall', '--json', 'ช่วยตอบเป็นภาษาไทยได้ไหม'], { cwd: project, env })).stdout);
    expect(json.selected.map((m: { path: string }) => m.path)).toEqual(['feedback_thai.md']);
  });

  test('--already-surfaced frees the slot; --queries runs a batch', async () => {
    const { root, project, env } = workspace();
    const skipped = JSON.parse((await runMemdir(['recall', '--json', '--already-surfaced', 'project_freeze.md', 'merge mobile branch'], { cwd: project, env })).stdout);
    expect(skipped.selected.map((s: { path: string }) => s.path)).not.toContain('project_freeze.md');
    const file = path.join(root, 'q.jsonl');
    fs.writeFileSync(file, '{"id":"a","query":"merge freeze on main"}\n{"id":"b","query":"no recap please"}\n');
    const batch = await runMemdir(['recall', '--queries', file], { cwd: project, env });
    const lines = batch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.id, l.selected[0]?.path])).toEqual([
      ['a', 'project_freeze.md'],
      ['b', 'feedback_terse.md'],
    ]);
  });

  test('--hook: skips one-word prompts, never repeats a memory in a session, stays under 60 KB', async () => {
    const { project, dir, env } = workspace();
    const hook = (prompt: string, session = 's1') =>
      runMemdir(['recall', '--hook'], { cwd: '/', env, input: JSON.stringify({ session_id: session, prompt, cwd: project, hook_event_name: 'UserPromptSubmit', transcript_path: '/x.jsonl' }) });
    expect(await hook('continue')).toMatchObject({ code: 0, stdout: '' });
    const first = await hook('can I merge the mobile branch this week?');
    expect(first.code).toBe(0);
    const out = JSON.parse(first.stdout).hookSpecificOutput;
    expect(out.hookEventName).toBe('UserPromptSubmit');
    expect(out.additionalContext).toContain('Merge freeze');
    expect(await hook('and merging the mobile branch next week?')).toMatchObject({ code: 0, stdout: '' });
    // No memory is about this prompt: the hook abstains (the command line still answers, and says it is not confident).
    const unrelated = 'thanks, now deploy the parser module and rerun the linter';
    expect(await hook(unrelated, 's4')).toMatchObject({ code: 0, stdout: '' });
    const loose = JSON.parse((await runMemdir(['recall', '--json', unrelated], { cwd: project, env })).stdout);
    expect(loose).toMatchObject({ selected: [{ path: 'reference_grafana.md' }], confidence: { confident: false } });
    expect(JSON.parse((await hook('merge the mobile branch', 's2')).stdout).hookSpecificOutput.additionalContext).toContain('Merge freeze');

    // The session budget: 30 memories of ~3 KB each cannot all be surfaced.
    for (let i = 0; i < 30; i++) writeTree(dir, { [`project_big_${i}.md`]: topic(`Billing note ${i}`, `Billing service rollout note number ${i}`, 'project', `billing rollout ${'x'.repeat(3000)}`) });
    let total = 0;
    for (let i = 0; i < 10; i++) {
      const r = await hook(`billing rollout question ${i}`, 's3');
      if (r.stdout) total += Buffer.byteLength(JSON.parse(r.stdout).hookSpecificOutput.additionalContext);
    }
    expect(total).toBeGreaterThan(40_000);
    expect(total).toBeLessThanOrEqual(60_000);
  }, 60_000);

  test('--hook never blocks: broken input is exit 0 and one line on stderr', async () => {
    const { project, env } = workspace();
    const r = await runMemdir(['recall', '--hook'], { cwd: project, env, input: 'not json' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('recall with the sentence model (the optional @energetic-ai packages, offline)', () => {
  const vectors = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, '.memdir/recall-vectors.json'), 'utf8'));
  const mountains = topic('Mountains', 'Goes skiing in the Alps each winter and hiking in summer', 'user', 'Skis in Val d Isere most years.');

  test('a memory no word of the query matches is found by its meaning; words only, nothing; not asked for other scripts', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'user_mountains.md': mountains });
    const ask = async (...args: string[]) => JSON.parse((await runMemdir(['recall', '--json', ...args], { cwd: project, env })).stdout);
    expect(await ask('which sports does she enjoy?')).toMatchObject({ semantic: true, selected: [{ path: 'user_mountains.md' }] });
    expect(await ask('--no-semantic', 'which sports does she enjoy?')).toMatchObject({ semantic: false, selected: [] });
    expect(await ask('她喜欢什么运动？')).toMatchObject({ semantic: false });
    const text = await runMemdir(['recall', 'which sports does she enjoy?'], { cwd: project, env });
    expect([text.code, text.stdout]).toEqual([0, `Memory (saved today): ${path.join(dir, 'user_mountains.md')}:\n${mountains.trimEnd()}\n`]);
  });

  test('line vectors are kept in .memdir/recall-vectors.json: an edit replaces only the vector of the line it changed; a corrupt store is rebuilt', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'user_mountains.md': mountains });
    const recall = () => runMemdir(['recall', '--json', 'which sports does she enjoy?'], { cwd: project, env });
    expect((await recall()).code).toBe(0);
    const first = vectors(dir);
    expect(first.model).toMatch(/^@energetic-ai\/model-embeddings-en@/);
    const before = Object.keys(first.lines);
    writeTree(dir, { 'user_mountains.md': mountains.replace('Skis in Val d Isere most years.', 'Skis in Chamonix most years.') });
    expect(JSON.parse((await recall()).stdout).selected[0].path).toBe('user_mountains.md');
    const after = Object.keys(vectors(dir).lines);
    expect(after.length).toBe(before.length);
    expect(after.filter((key) => !before.includes(key))).toHaveLength(1);
    for (const key of before.filter((k) => after.includes(k))) expect(vectors(dir).lines[key]).toBe(first.lines[key]);
    fs.writeFileSync(path.join(dir, '.memdir/recall-vectors.json'), '{"format":1,"model":');
    const repaired = await recall();
    expect([repaired.code, JSON.parse(repaired.stdout).semantic, repaired.stderr]).toEqual([0, true, '']);
    expect(Object.keys(vectors(dir).lines).sort()).toEqual([...after].sort());
  });

  test('only the memories the words found are embedded; all of them when the words find nothing', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'user_mountains.md': mountains });
    const json = JSON.parse((await runMemdir(['recall', '--json', 'latency dashboard'], { cwd: project, env })).stdout);
    expect(json).toMatchObject({ semantic: true, selected: [{ path: 'reference_grafana.md' }] });
    // The Grafana memory's name, description and body line.
    expect(Object.keys(vectors(dir).lines)).toHaveLength(3);
    await runMemdir(['recall', '--json', 'which sports does she enjoy?'], { cwd: project, env });
    // Every memory: name, description and body lines (3 each; the freeze memory's body has 3 lines: 5).
    expect(Object.keys(vectors(dir).lines)).toHaveLength(14);
  });

  test('the prompt hook never loads the model; recall.semantic false in memdir.config.json turns it off', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'user_mountains.md': mountains });
    const hook = await runMemdir(['recall', '--hook'], {
      cwd: '/',
      env,
      input: JSON.stringify({ session_id: 's', prompt: 'can I merge the mobile branch this week?', cwd: project, hook_event_name: 'UserPromptSubmit' }),
    });
    expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain('Merge freeze');
    expect(fs.existsSync(path.join(dir, '.memdir/recall-vectors.json'))).toBe(false);
    fs.writeFileSync(path.join(project, 'memdir.config.json'), JSON.stringify({ recall: { semantic: false } }));
    const off = JSON.parse((await runMemdir(['recall', '--json', 'which sports does she enjoy?'], { cwd: project, env })).stdout);
    expect(off).toMatchObject({ semantic: false, selected: [] });
    expect(fs.existsSync(path.join(dir, '.memdir/recall-vectors.json'))).toBe(false);
  });
});

describe('recall --engine claude (real SDK, fake Messages API)', () => {
  const env = (home: string) => cleanEnv(home, { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url });
  const pick = (names: unknown) => ({ content: [{ type: 'tool_use', id: 'toolu_1', name: 'select_memories', input: { selected_memories: names } }] });

  test('one side query with the manifest, the schema and a cache marker; the pick is used', async () => {
    const { project, home } = workspace();
    server.enqueue(pick(['feedback_terse.md']));
    const before = server.messages().length;
    const r = await runMemdir(['recall', '--engine', 'claude', '--json', '--recent-tools', 'Bash,Edit', 'write the release notes'], { cwd: project, env: env(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ engine: 'claude', selected: [{ path: 'feedback_terse.md', score: null }], usage: { inputTokens: 10 } });
    const body = server.messages()[before]!.body;
    expect(body.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(body.tools[0]).toMatchObject({ name: 'select_memories', input_schema: { properties: { selected_memories: { type: 'array', maxItems: 5 } } } });
    expect(body.messages[0].content).toMatch(/^Query: write the release notes\n\nTools in use right now: Bash, Edit\n\nMemories \(newest first\):\n/);
    expect(body.messages[0].content).toMatch(/^- \[project\] project_freeze\.md \(\d{4}-\d\d-\d\dT[\d:.]+Z\): No merges to main during the mobile release freeze until 2026-03-05$/m);
    expect(body.messages[0].content.trim().split('\n').at(-1)).toMatch(/^- \[reference\] reference_grafana\.md/);
    expect(body.max_tokens).toBeLessThanOrEqual(300);
  });

  // The SDK retries overload and timeouts once (recall keeps retries low: it runs on every prompt).
  test.each([
    ['plain text instead of JSON', { text: 'I think feedback_terse.md' }, 1, /without the structured output/],
    ['only unknown file names', pick(['nope.md']), 1, /none of the selected files exist/],
    ['529 overloaded', { status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } }, 2, /HTTP 529/],
    ['a timeout', { delayMs: 3_000, reply: pick(['feedback_terse.md']) }, 2, /timed out after 500 ms/],
  ])(
    '%s falls back to the local engine and says so',
    async (_label, reply, attempts, note) => {
      const { project, home } = workspace();
      for (let i = 0; i < attempts; i++) server.enqueue(reply as never);
      const r = await runMemdir(['recall', '--engine', 'claude', '--json', 'merge the mobile branch'], { cwd: project, env: { ...env(home), MEMDIR_MODEL_TIMEOUT_MS: '500' }, timeoutMs: 60_000 });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(note);
      expect(r.stderr).toMatch(/using the local engine/);
      expect(JSON.parse(r.stdout)).toMatchObject({ engine: 'local', selected: [{ path: 'project_freeze.md' }] });
    },
    60_000,
  );

  test('unknown names next to real ones are dropped with a note', async () => {
    const { project, home } = workspace();
    server.enqueue(pick(['ghost.md', 'project_freeze.md']));
    const r = await runMemdir(['recall', '--engine', 'claude', '--json', 'merge'], { cwd: project, env: env(home) });
    expect(JSON.parse(r.stdout).selected.map((s: { path: string }) => s.path)).toEqual(['project_freeze.md']);
    expect(r.stderr).toMatch(/do not exist \(ghost\.md\)/);
  });
});
