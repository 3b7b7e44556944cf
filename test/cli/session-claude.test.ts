/**
 * session's claude engine (real SDK, fake Messages API): the template filled by one structured
 * call; items that cite no message of the transcript, hold a secret or run too long are left out
 * and said; an answer without every section is refused and the local engine writes the notes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../helpers/fake-model-server.js';
import { sharedFixtures } from '../helpers/fixtures.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

const REAL = path.join(sharedFixtures, 'transcripts/d-kimuson+claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
const SESSION = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';
const SECTIONS = ['currentState', 'task', 'files', 'workflow', 'errors', 'codebase', 'learnings', 'results', 'worklog'];
const SECRET = `${'ghp_'}a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8`;

/** Two uuids of the real transcript: the slash command that starts the session, and the last assistant line. */
function uuids(): { first: string; last: string } {
  const lines = fs
    .readFileSync(REAL, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { uuid?: string; type: string; isSidechain?: boolean });
  const main = lines.filter((l) => !l.isSidechain && typeof l.uuid === 'string');
  return { first: main.find((l) => l.type === 'user')!.uuid!, last: main.findLast((l) => l.type === 'assistant')!.uuid! };
}

const toolUse = (input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', id: 'toolu_s', name: 'session_notes', input }] });

describe('session --engine claude', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(() => server.close());

  function workspace() {
    const root = tempDir();
    return { root, dir: path.join(root, 'memory'), env: cleanEnv(path.join(root, 'home'), { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url, MEMDIR_MODEL_TIMEOUT_MS: '2000' }) };
  }

  test('the model fills the template; every kept line cites messages of the transcript; the rest is left out and said', async () => {
    const { root, dir, env } = workspace();
    const { first, last } = uuids();
    const answer = Object.fromEntries(SECTIONS.map((id) => [id, [] as unknown[]]));
    answer.task = [{ text: 'Bring CLAUDE.md up to date with the project', refs: [first] }];
    answer.currentState = [{ text: 'CLAUDE.md updated; nothing pending', refs: [last.slice(0, 8)] }];
    answer.learnings = [
      { text: 'Read a file before editing it', refs: ['not-a-message-of-this-transcript'] },
      { text: `The deploy token is ${SECRET}`, refs: [first] },
      { text: 'x'.repeat(600), refs: [first] },
    ];
    server.enqueue(toolUse(answer));
    const before = server.messages().length;
    const result = await runMemdir(['session', '--from', REAL, '--dir', dir, '--engine', 'claude', '--json'], { cwd: root, env });
    expect(result.code, result.stderr).toBe(0);
    const request = server.messages()[before]!;
    // One structured call: the template's tool forced, the conversation with its uuids, the notes so far.
    expect(request.body.tool_choice).toEqual({ type: 'tool', name: 'session_notes' });
    expect(request.body.tools[0].input_schema.required).toEqual(SECTIONS);
    expect(request.text).toContain(`uuid=\\"${first}\\"`);
    expect(request.text).toContain('Current notes:\\n(none yet)');
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'written', engine: 'claude', usage: { inputTokens: 10, outputTokens: 5 } });
    expect(result.stderr).toContain('left out a line the model wrote: learnings: cites no message of this transcript');
    expect(result.stderr).toContain('left out a line the model wrote: learnings: holds a secret');
    expect(result.stderr).toContain('left out a line the model wrote: learnings: longer than 500 characters');
    expect(result.stderr).not.toContain(SECRET);
    const notes = fs.readFileSync(path.join(dir, '.memdir/sessions', `${SESSION}.md`), 'utf8');
    expect(notes).toContain(`- Bring CLAUDE.md up to date with the project [m:${first.slice(0, 8)}]`);
    expect(notes).toContain(`- CLAUDE.md updated; nothing pending [m:${last.slice(0, 8)}]`);
    expect(notes).not.toContain(SECRET);
    expect(notes).not.toContain('Read a file before editing it');

    // The next call is shown the notes as they stand.
    server.enqueue(toolUse(answer));
    const again = server.messages().length;
    await runMemdir(['session', '--from', REAL, '--dir', dir, '--engine', 'claude'], { cwd: root, env });
    expect(server.messages()[again]!.text).toContain('Bring CLAUDE.md up to date with the project');
  });

  test('an answer without every section is refused: the local engine writes the notes and says so', async () => {
    const { root, dir, env } = workspace();
    server.enqueue(toolUse({ task: [], worklog: [] }));
    const result = await runMemdir(['session', '--from', REAL, '--dir', dir, '--engine', 'claude', '--json'], { cwd: root, env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'written', engine: 'local', fallback: { from: 'claude', kind: 'invalid' } });
    expect(result.stderr).toMatch(/the claude engine failed \(.*sections missing: currentState, files, workflow, errors, codebase, learnings, results.*\); the local engine wrote the notes/);
    const notes = fs.readFileSync(path.join(dir, '.memdir/sessions', `${SESSION}.md`), 'utf8');
    expect(notes).toContain('Request: "/orchestrator @CLAUDE.md を最新の状態にアップデートしてください"');
  });
});
