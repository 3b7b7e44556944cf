import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runClaude, waitForDetachedExtracts } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer, type RecordedRequest, type ScriptedReply } from '../helpers/fake-model-server.js';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

let server: FakeModelServer;
/** Where the scripted model writes when asked to remember (set per test). */
let memoryDir = '';

/**
 * The model of a real session: asked "Please remember: …" with tools on offer, it saves with a
 * Write into the memory directory (as in the recorded 2.1.197 fixture); otherwise it just answers.
 */
function scriptedModel(request: RecordedRequest): ScriptedReply {
  // Claude Code sends the prompt with context blocks around it: look at the whole conversation.
  const conversation = JSON.stringify(request.body?.messages ?? []);
  const offersWrite = (request.body?.tools ?? []).some((t: { name?: string }) => t.name === 'Write');
  if (offersWrite && conversation.includes('Please remember:') && !conversation.includes('tool_result')) {
    return {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_write_1',
          name: 'Write',
          input: {
            file_path: path.join(memoryDir, 'feedback_no_db_mocks.md'),
            content: '---\nname: No database mocks\ndescription: Integration tests hit a real database\ntype: feedback\n---\n\nNo database mocks.\n',
          },
        },
      ],
    };
  }
  return { text: 'Done.' };
}

beforeAll(async () => {
  server = await startFakeModelServer();
  server.setDefault(scriptedModel);
});
afterAll(() => server.close());

async function project() {
  const home = tempDir();
  const repo = await createRepo(path.join(tempDir(), 'app'));
  const env = cleanEnv(home);
  memoryDir = (await runMemdir(['where'], { cwd: repo, env })).stdout.trim();
  const transcriptOf = (sessionId: string) => {
    const projects = path.join(home, '.claude/projects');
    const folder = fs.readdirSync(projects).find((f) => fs.existsSync(path.join(projects, f, `${sessionId}.jsonl`)));
    return path.join(projects, folder!, `${sessionId}.jsonl`);
  };
  return { home, repo, env, transcriptOf };
}

/** Topic files as memdir counts them: hidden ones (its in-flight `.memdir-tmp-…` writes) are not memories. */
const topicFiles = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.md') && f !== 'MEMORY.md' && !f.startsWith('.'))
        .sort()
    : [];

test('extract skips a session where the agent saved itself, and turns "remember that…" into one project memory exactly once', async () => {
  const { home, repo, env, transcriptOf } = await project();
  const saved = '0b6a3c1e-1111-4c55-9d0e-0123456789ab';
  const r1 = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'Please remember: never mock the database in integration tests', args: ['--session-id', saved] });
  expect(r1.code, r1.stderr).toBe(0);
  expect(topicFiles(memoryDir)).toEqual(['feedback_no_db_mocks.md']);
  const skip = await runMemdir(['extract', '--from', transcriptOf(saved), '--engine', 'local', '--json'], { cwd: repo, env });
  expect(skip.code, skip.stderr).toBe(0);
  const skipped = JSON.parse(skip.stdout);
  expect(skipped).toMatchObject({ status: 'main-agent-wrote', sessionId: saved, operations: [] });
  expect(skipped.cursor.after).not.toBeNull();
  expect(topicFiles(memoryDir)).toEqual(['feedback_no_db_mocks.md']);

  const told = '0b6a3c1e-2222-4c55-9d0e-0123456789ab';
  const r2 = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'remember that the staging DB is reset every Monday', args: ['--session-id', told] });
  expect(r2.code, r2.stderr).toBe(0);
  const first = await runMemdir(['extract', '--from', transcriptOf(told), '--engine', 'local', '--json'], { cwd: repo, env });
  expect(first.code, first.stderr).toBe(0);
  const created = JSON.parse(first.stdout).operations;
  expect(created).toMatchObject([{ op: 'create', type: 'project' }]);
  const text = fs.readFileSync(path.join(memoryDir, created[0].file), 'utf8');
  expect(text).toContain('The staging DB is reset every Monday');
  // No reason was given: no Why is made up, and no How to apply every memory would share.
  expect(text).not.toMatch(/\*\*(?:Why|How to apply):\*\*/);
  expect(text).toContain(`originSessionId: ${told}`);
  expect(text).not.toMatch(/\b(?:today|tomorrow|yesterday|next|last) /i);
  const again = await runMemdir(['extract', '--from', transcriptOf(told), '--engine', 'local', '--json'], { cwd: repo, env });
  expect(JSON.parse(again.stdout)).toMatchObject({ status: 'no-new-messages', operations: [] });
  expect(topicFiles(memoryDir)).toHaveLength(2);
});

test('as a Stop hook, extract lets claude -p finish and the memory appears in the background', async () => {
  const { home, repo } = await project();
  writeTree(repo, { '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'memdir extract --hook --engine local' }] }] } }) });
  const r = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'remember: our rate limit with the payment provider is 100 requests per second' });
  expect(r.code, r.stderr).toBe(0);
  await waitForDetachedExtracts(memoryDir);
  const log = path.join(memoryDir, '.memdir/extract.log');
  const files = topicFiles(memoryDir);
  expect(files, fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : `no ${log}; stderr: ${r.stderr}`).toHaveLength(1);
  expect(fs.readFileSync(path.join(memoryDir, files[0]!), 'utf8')).toContain('100 requests per second');
  expect(fs.readFileSync(log, 'utf8')).toContain('Saved 1 memory');
});

// Issue 34: under the Stop hook, a standing instruction was dropped without a trace.
test('as a Stop hook, extract saves "from now on …" and keeps an inferred statement for extract --review', async () => {
  const { home, repo, env } = await project();
  writeTree(repo, { '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'memdir extract --hook --engine local' }] }] } }) });
  const instruction = 'From now on answer in British English, and never use emojis in commit messages.';
  const r1 = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: instruction });
  expect(r1.code, r1.stderr).toBe(0);
  await waitForDetachedExtracts(memoryDir);
  const log = path.join(memoryDir, '.memdir/extract.log');
  const files = topicFiles(memoryDir);
  expect(files, fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : `no ${log}; stderr: ${r1.stderr}`).toHaveLength(1);
  expect(fs.readFileSync(path.join(memoryDir, files[0]!), 'utf8')).toContain(`\n\n${instruction}\n`);

  const inferred = 'I prefer small pull requests, one change each.';
  const r2 = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: inferred });
  expect(r2.code, r2.stderr).toBe(0);
  await waitForDetachedExtracts(memoryDir);
  expect(topicFiles(memoryDir)).toEqual(files);
  const review = await runMemdir(['extract', '--review', '--json'], { cwd: repo, env });
  expect(review.code, review.stderr).toBe(0);
  const { candidates } = JSON.parse(review.stdout);
  expect(candidates, fs.readFileSync(log, 'utf8')).toEqual([expect.objectContaining({ statement: inferred, basis: 'inferred', kind: 'standing' })]);
  const listed = await runMemdir(['extract', '--review'], { cwd: repo, env });
  expect(listed.stdout).toContain(`${candidates[0].id}  ${inferred}`);
  expect(listed.stdout).toContain(`memdir extract --accept ${candidates[0].id}  |  memdir extract --discard ${candidates[0].id}`);
});
