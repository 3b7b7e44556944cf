import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claudeReleases, runClaude } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer, type RecordedRequest, type ScriptedReply } from '../helpers/fake-model-server.js';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, memdirBin, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/**
 * The PreToolUse guard under real Claude Code, as `memdir hooks install` wires it: the scripted model
 * reads MEMORY.md, then writes it with 30 inline lines (refused: the reason reaches the model in the
 * tool result, the file stays as it was), or writes a topic file and adds one pointer (goes through).
 */
let server: FakeModelServer;
/** The memory directory of the test that runs (the scripted model writes there). */
let memoryDir = '';

const INDEX = '# Memory\n\n- [Terse replies](feedback_terse.md) — no recap at the end of a reply\n';
const INLINE = Array.from({ length: 30 }, (_, i) => `Deploy step ${i + 1}: run pnpm build, copy dist to the bucket, purge the CDN cache.\n`).join('');
const POINTER = '- [Deploy day](project_deploy.md) — deploys go out on Tuesdays only\n';
const TOPIC = '---\nname: Deploy day\ndescription: Deploys go out on Tuesdays only\ntype: project\n---\nDeploys go out on Tuesdays.\n\n**Why:** the on-call rotation changes on Monday.\n';

const toolUse = (id: string, name: string, input: Record<string, unknown>): ScriptedReply => ({ content: [{ type: 'tool_use', id, name, input }], stopReason: 'tool_use' });

/** One tool call per turn: the step is the number of tool results the conversation holds so far. */
function scriptedModel(request: RecordedRequest): ScriptedReply {
  const conversation = JSON.stringify(request.body?.messages ?? []);
  const offersWrite = (request.body?.tools ?? []).some((t: { name?: string }) => t.name === 'Write');
  if (!offersWrite) return { text: 'Done.' };
  const step = conversation.split('"tool_result"').length - 1;
  const index = path.join(memoryDir, 'MEMORY.md');
  if (conversation.includes('GUARD-BAD')) {
    if (step === 0) return toolUse('toolu_read_1', 'Read', { file_path: index });
    if (step === 1) return toolUse('toolu_write_bad', 'Write', { file_path: index, content: `${INDEX}\n## Deploy\n${INLINE}` });
  }
  if (conversation.includes('GUARD-GOOD')) {
    if (step === 0) return toolUse('toolu_read_2', 'Read', { file_path: index });
    if (step === 1) return toolUse('toolu_write_topic', 'Write', { file_path: path.join(memoryDir, 'project_deploy.md'), content: TOPIC });
    if (step === 2) return toolUse('toolu_edit_index', 'Edit', { file_path: index, old_string: INDEX, new_string: `${INDEX}${POINTER}` });
  }
  if (conversation.includes('GUARD-OUTSIDE') && step === 0)
    return toolUse('toolu_write_notes', 'Write', { file_path: path.join(outsideDir, 'NOTES.md'), content: '# Notes\n\nDeploys go out on Tuesdays.\n' });
  return { text: 'Done.' };
}

/** The project folder of the test that runs (the scripted model writes a Markdown file there). */
let outsideDir = '';

/** Loaded with --require into the guard's hook: it records what its stdin was and which bundles it loaded. */
const RECORDER = `
const fs = require('node:fs');
if (process.argv.includes('guard')) {
  const s = fs.fstatSync(0);
  const stdin = s.isSocket() ? 'socket' : s.isFIFO() ? 'pipe' : s.isFile() ? 'file' : 'other';
  process.on('exit', () => fs.writeFileSync(require('node:path').join(process.env.RECORD_DIR, process.pid + '.json'), JSON.stringify({ stdin, modules: Object.keys(require.cache) })));
}
`;

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
  writeTree(memoryDir, {
    'MEMORY.md': INDEX,
    'feedback_terse.md': '---\nname: Terse replies\ndescription: No recap at the end of a reply\ntype: feedback\n---\nNo summary after the answer.\n',
  });
  const installed = await runMemdir(['hooks', 'install', '--claude', '--command', 'memdir'], { cwd: repo, env });
  expect(installed.code, installed.stderr).toBe(0);
  expect(JSON.parse(fs.readFileSync(path.join(repo, '.claude/settings.local.json'), 'utf8')).hooks.PreToolUse).toEqual([
    { matcher: 'Write|Edit|MultiEdit', hooks: [{ type: 'command', command: 'memdir guard --hook' }] },
  ]);
  return { home, repo };
}

/** The tool results the model was sent, by tool_use id, as text. */
function toolResults(requests: RecordedRequest[]): Map<string, string> {
  const results = new Map<string, string>();
  for (const request of requests)
    for (const message of request.body?.messages ?? [])
      for (const block of Array.isArray(message.content) ? message.content : [])
        if (block.type === 'tool_result') results.set(block.tool_use_id, typeof block.content === 'string' ? block.content : JSON.stringify(block.content));
  return results;
}

describe.each(claudeReleases)('Claude Code %s', (release) => {
  test('the guard refuses a Write that puts 30 inline lines into MEMORY.md; the model is told why; MEMORY.md is unchanged', async () => {
    const { home, repo } = await project();
    const before = server.requests.length;
    const r = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'GUARD-BAD: note the deploy steps in memory', release });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(INDEX);
    const results = toolResults(server.requests.slice(before));
    expect(results.get('toolu_read_1')).toContain('Terse replies');
    expect(results.get('toolu_write_bad')).toContain('memdir guard: This write puts content into MEMORY.md (lines 6–35); MEMORY.md holds only one-line pointers. Write the detail to a topic file');
  });

  test('a Write of Markdown outside the memory directory passes on the guard’s fast bundle alone', async () => {
    const { home, repo } = await project();
    outsideDir = repo;
    const records = tempDir();
    const recorder = path.join(records, 'recorder.cjs');
    fs.writeFileSync(recorder, RECORDER);
    // The installed entry, run under Node with the recorder.
    const settingsFile = path.join(repo, '.claude/settings.local.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    settings.hooks.PreToolUse[0].hooks[0].command = `${JSON.stringify(process.execPath)} --require ${JSON.stringify(recorder)} ${JSON.stringify(memdirBin)} guard --hook`;
    fs.writeFileSync(settingsFile, JSON.stringify(settings));
    const r = await runClaude({
      cwd: repo,
      home,
      baseUrl: server.url,
      prompt: 'GUARD-OUTSIDE: write the notes file',
      release,
      // A project file, unlike a memory, needs the permission to edit.
      args: ['--permission-mode', 'acceptEdits'],
      env: { RECORD_DIR: records },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo, 'NOTES.md'), 'utf8')).toBe('# Notes\n\nDeploys go out on Tuesdays.\n');
    const runs = fs
      .readdirSync(records)
      .filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(fs.readFileSync(path.join(records, name), 'utf8')) as { stdin: string; modules: string[] });
    expect(runs).toHaveLength(1);
    const loaded = (bundle: string) => runs[0]!.modules.some((m) => m.endsWith(bundle));
    // Claude Code gives the hook a socket or a pipe; either is read without the hook runtime.
    expect([runs[0]!.stdin, loaded('dist/fast/guard.cjs'), loaded('dist/guard-hook.cjs'), loaded('dist/cli.cjs')]).toEqual([expect.stringMatching(/^(socket|pipe)$/), true, false, false]);
  });

  test('a good write goes through: a new topic file, then one pointer in MEMORY.md', async () => {
    const { home, repo } = await project();
    const before = server.requests.length;
    const r = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'GUARD-GOOD: remember that deploys go out on Tuesdays', release });
    expect(r.code, r.stderr).toBe(0);
    // Claude Code rewrites a memory's frontmatter as it writes it (type under metadata:, the session's id): the body is the model's.
    const written = fs.readFileSync(path.join(memoryDir, 'project_deploy.md'), 'utf8');
    expect(written).toContain('description: Deploys go out on Tuesdays only\n');
    expect(written.endsWith(TOPIC.slice(TOPIC.indexOf('Deploys go out on Tuesdays.\n')))).toBe(true);
    expect(fs.readFileSync(path.join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(`${INDEX}${POINTER}`);
    const results = toolResults(server.requests.slice(before));
    expect([...results.keys()]).toEqual(['toolu_read_2', 'toolu_write_topic', 'toolu_edit_index']);
    for (const text of results.values()) expect(text).not.toContain('memdir guard');
  });
});
