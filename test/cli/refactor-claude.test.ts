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

const INDEX = '# Memory\n\n## Build\nRun pnpm -w build before tests or the generated GraphQL types are missing.\n\n## On-call\nAPI latency lives on the api-latency Grafana board.\n';

function workspace() {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  writeTree(dir, { 'MEMORY.md': INDEX });
  const env = cleanEnv(path.join(root, 'home'), { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url });
  return { root, dir, env };
}

const toolAnswer = (input: unknown) => ({ content: [{ type: 'tool_use', id: 'toolu_1', name: 'name_memories', input }] });

describe('refactor --engine claude (real SDK, fake Messages API)', () => {
  test('the model names and types the moved blocks; memdir validates and places them', async () => {
    const { root, dir, env } = workspace();
    server.enqueue(
      toolAnswer({
        memories: [
          { block: 0, name: 'Build before tests', description: 'Run pnpm -w build first or GraphQL types are missing in tests', type: 'feedback' },
          { block: 1, name: 'API latency board', description: 'Grafana api-latency board is where on-call watches API latency', type: 'reference' },
        ],
      }),
    );
    const before = server.messages().length;
    const r = await runMemdir(['refactor', '--dir', dir, '--engine', 'claude', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ engine: 'claude', usage: { inputTokens: 10, outputTokens: 5 } });
    expect(fs.readFileSync(path.join(dir, 'feedback_build_before_tests.md'), 'utf8')).toContain('description: Run pnpm -w build first or GraphQL types are missing in tests\ntype: feedback');
    expect(fs.existsSync(path.join(dir, 'reference_api_latency_board.md'))).toBe(true);
    const request = server.messages()[before]!.body;
    expect(request.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(request.tool_choice).toEqual({ type: 'tool', name: 'name_memories' });
    expect(request.tools[0].input_schema.properties.memories).toBeDefined();
    expect(request.messages[0].content).toContain('<block number="1" heading="On-call">');
    expect(request.model).toBe('claude-haiku-5-5');
  });

  test.each([
    ['an unknown block number', toolAnswer({ memories: [{ block: 7, name: 'x', description: 'a long enough description here', type: 'user' }] }), /unknown block 7/],
    ['a type outside the taxonomy', toolAnswer({ memories: [{ block: 0, name: 'x', description: 'a long enough description here', type: 'idea' }] }), /not in the taxonomy/],
    ['plain text instead of the tool', { text: 'Sure! Here are names.' }, /without the structured output/],
  ])('%s falls back to the local engine with a note', async (_label, reply, note) => {
    const { root, dir, env } = workspace();
    server.enqueue(reply as never);
    const r = await runMemdir(['refactor', '--dir', dir, '--engine', 'claude', '--json'], { cwd: root, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(note);
    expect(r.stderr).toMatch(/using the local engine/);
    expect(JSON.parse(r.stdout).engine).toBe('local');
    expect(fs.existsSync(path.join(dir, 'project_build.md'))).toBe(true);
  });

  test('overloaded (529) after retries falls back; a rejected key is exit 2 with nothing changed', async () => {
    const { root, dir, env } = workspace();
    const overloaded = { status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } };
    server.enqueue(overloaded, overloaded, overloaded);
    const r = await runMemdir(['refactor', '--dir', dir, '--engine', 'claude'], { cwd: root, env, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/HTTP 529.*using the local engine/);

    const second = workspace();
    server.enqueue({ status: 401, error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    const denied = await runMemdir(['refactor', '--dir', second.dir, '--engine', 'claude'], { cwd: second.root, env: second.env });
    expect(denied.code).toBe(2);
    expect(denied.stderr.trim()).toBe('memdir: model call failed (HTTP 401): invalid x-api-key (check ANTHROPIC_API_KEY)');
    expect(fs.readdirSync(second.dir)).toEqual(['.memdir', 'MEMORY.md']);
  }, 60_000);

  test('--engine claude without a key is exit 2', async () => {
    const { root, dir } = workspace();
    const r = await runMemdir(['refactor', '--dir', dir, '--engine', 'claude'], { cwd: root, env: cleanEnv(path.join(root, 'home')) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--engine claude needs ANTHROPIC_API_KEY/);
  });
});
