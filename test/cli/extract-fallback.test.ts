/**
 * extract's claude engine fails safe: a model call that errors, hangs or answers without the
 * structured output falls back to the local engine for that run (real SDK, fake Messages API).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../helpers/fake-model-server.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

const REQUEST = 'Please remember that the staging database is wiped every Sunday night.';

/** A small transcript: a task, then the explicit request the fallback must keep. */
function transcriptFile(root: string): string {
  const line = (type: 'user' | 'assistant', uuid: string, parentUuid: string | null, minute: number, content: unknown) =>
    JSON.stringify({
      type,
      uuid,
      parentUuid,
      sessionId: 'sess-fb',
      timestamp: `2026-03-02T10:0${minute}:00Z`,
      message: type === 'user' ? { role: 'user', content } : { id: `msg_${uuid}`, role: 'assistant', content },
    });
  const file = path.join(root, 't.jsonl');
  fs.writeFileSync(
    file,
    `${[
      line('user', 'u0', null, 0, 'fix the failing login test'),
      line('assistant', 'a0', 'u0', 0, [{ type: 'text', text: 'Done.' }]),
      line('user', 'u1', 'a0', 1, REQUEST),
      line('assistant', 'a1', 'u1', 1, [{ type: 'text', text: 'Noted.' }]),
    ].join('\n')}\n`,
  );
  return file;
}

function workspace(server: FakeModelServer) {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  // A short timeout so that a hang is given up on in a test's time (src/store/test-hooks.ts).
  const env = cleanEnv(path.join(root, 'home'), { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url, MEMDIR_MODEL_TIMEOUT_MS: '400' });
  return { root, dir, env, file: transcriptFile(root) };
}

const memoryFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'MEMORY.md') : []);

const toolUse = (input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', id: 'toolu_fb', name: 'memory_operations', input }] });

describe('extract --engine claude falls back to the local engine', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(() => server.close());

  test.each<[string, ScriptedReply, 'invalid' | 'unavailable' | 'auth', RegExp]>([
    ['an answer without the tool use', { text: 'Sure! I would save the staging note.' }, 'invalid', /model answered without the structured output it was asked for/],
    ['a tool use whose input is not the schema', toolUse('{"operations": [not json'), 'invalid', /model output is invalid: operations is not a list/],
    ['HTTP 500 on every try', { status: 500, error: { type: 'api_error', message: 'Internal server error' } }, 'unavailable', /model call failed \(HTTP 500\): Internal server error/],
    ['a hang past the timeout', { delayMs: 5_000, reply: { text: 'late' } }, 'unavailable', /model call timed out after 400 ms/],
    [
      'HTTP 401 (a refused key)',
      { status: 401, error: { type: 'authentication_error', message: 'invalid x-api-key' } },
      'auth',
      /the API key was refused, check ANTHROPIC_API_KEY \(model call failed \(HTTP 401\): invalid x-api-key\)/,
    ],
  ])('%s: the explicit request is still saved, and the fallback is said on stderr and in --json', async (_label, reply, kind, reason) => {
    const { root, dir, env, file } = workspace(server);
    server.setDefault(reply);
    try {
      const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'claude', '--json'], { cwd: root, env });
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.engine).toBe('local');
      expect(report.fallback).toEqual({ from: 'claude', reason: expect.stringMatching(reason), kind });
      expect(report.operations).toMatchObject([{ op: 'create', type: 'project', sources: ['u1'], basis: 'request' }]);
      expect(report.usage).toBeNull();
      expect(report.considered).toMatchObject([{ message: 'u1', kind: 'explicit', decision: 'saved', reason: 'a new memory' }]);
      const said = r.stderr.split('\n').filter((l) => l.includes('using the local engine'));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/^memdir extract: /);
      expect(said[0]).toMatch(reason);
      expect(memoryFiles(dir)).toEqual([report.operations[0].file]);
      expect(fs.readFileSync(path.join(dir, report.operations[0].file), 'utf8')).toContain('The staging database is wiped every Sunday night');
      expect(JSON.parse(fs.readFileSync(path.join(dir, '.memdir/extract/sessions/sess-fb.json'), 'utf8')).cursor).toBe('a1');
    } finally {
      server.setDefault({ text: 'OK' });
    }
  });

  test('without --json the fallback is one warning and the memory is saved', async () => {
    const { root, dir, env, file } = workspace(server);
    server.enqueue({ text: 'no tool here' });
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'claude'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('memdir extract: model answered without the structured output it was asked for; using the local engine\n');
    expect(r.stderr).toContain('Saved 1 memory');
    expect(memoryFiles(dir)).toHaveLength(1);
  });

  test('a valid model answer is used: no fallback', async () => {
    const { root, dir, env, file } = workspace(server);
    server.enqueue(
      toolUse({
        operations: [
          {
            op: 'create',
            file: 'project_staging_wiped.md',
            name: 'Staging wiped on Sundays',
            description: 'The staging database is wiped every Sunday night',
            type: 'project',
            body: 'The staging database is wiped every Sunday night.',
            sources: ['u1'],
          },
        ],
      }),
    );
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'claude', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.engine).toBe('claude');
    expect(report).not.toHaveProperty('fallback');
    expect(report.operations).toMatchObject([{ op: 'create', file: 'project_staging_wiped.md', basis: 'model' }]);
    // With the claude engine, what is considered is what the model proposed.
    expect(report.considered).toEqual([
      {
        message: 'u1',
        statement: 'The staging database is wiped every Sunday night',
        kind: 'model',
        decision: 'saved',
        reason: 'create project_staging_wiped.md',
        file: 'project_staging_wiped.md',
      },
    ]);
    expect(r.stderr).not.toContain('using the local engine');
    expect(memoryFiles(dir)).toEqual(['project_staging_wiped.md']);
  });

  test("the Stop hook's background run falls back too, and says so in extract.log", async () => {
    const { root, dir, env, file } = workspace(server);
    server.setDefault({ status: 500, error: { type: 'api_error', message: 'Internal server error' } });
    try {
      // An inferred preference the hook's mode leaves for review: the fallback run records it too.
      const preference = {
        type: 'user',
        uuid: 'u2',
        parentUuid: 'a1',
        sessionId: 'sess-fb',
        timestamp: '2026-03-02T10:02:00Z',
        message: { role: 'user', content: 'I prefer small pull requests, one change each.' },
      };
      fs.appendFileSync(file, `${JSON.stringify(preference)}\n`);
      const input = JSON.stringify({ session_id: 'sess-fb', transcript_path: file, cwd: root, hook_event_name: 'Stop' });
      const r = await runMemdir(['extract', '--hook', '--dir', dir, '--engine', 'claude'], { cwd: root, env, input });
      expect(r.code, r.stderr).toBe(0);
      const cursorFile = path.join(dir, '.memdir/extract/sessions/sess-fb.json');
      for (let waited = 0; waited < 20_000 && !fs.existsSync(cursorFile); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(fs.existsSync(cursorFile)).toBe(true);
      const log = fs.readFileSync(path.join(dir, '.memdir/extract.log'), 'utf8');
      expect(log).toContain('memdir extract: model call failed (HTTP 500): Internal server error; using the local engine\n');
      expect(memoryFiles(dir)).toHaveLength(1);
      expect(fs.readFileSync(path.join(dir, memoryFiles(dir)[0]!), 'utf8')).toContain('The staging database is wiped every Sunday night');
      expect(fs.readFileSync(path.join(dir, '.memdir/extract/candidates.jsonl'), 'utf8')).toContain('I prefer small pull requests');
    } finally {
      server.setDefault({ text: 'OK' });
    }
  });
});
