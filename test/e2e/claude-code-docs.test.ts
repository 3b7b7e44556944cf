/**
 * Magic Docs end to end: real Claude Code reads a Magic Doc through the fake server's Read tool
 * call, the Stop hook runs `memdir docs --hook`, and the detached run updates the doc with the fake
 * server's answer through the real SDK; a doc the turn did not read stays as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claudeReleases, runClaude } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer, type RecordedRequest, type ScriptedReply } from '../helpers/fake-model-server.js';
import { createRepo } from '../helpers/git-repo.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const API_DOC = '# MAGIC DOC: API endpoints\n_One line per endpoint._\n\n- GET /users: list the users\n';
const UPDATED = `${API_DOC}- DELETE /users/:id: remove a user\n`;
const DEPS_DOC = '# MAGIC DOC: Dependencies\n\n- yargs: the command line\n';

let server: FakeModelServer;
/** The doc the scripted agent reads (set per test). */
let docToRead = '';

/**
 * The agent's model reads the doc when asked about the API (one Read, then a text answer); memdir's
 * own call (the `magic_doc` tool) gets the doc with the new endpoint.
 */
function scriptedModel(request: RecordedRequest): ScriptedReply {
  const tools: Array<{ name?: string }> = request.body?.tools ?? [];
  if (tools.some((t) => t.name === 'magic_doc')) {
    return { content: [{ type: 'tool_use', id: 'toolu_doc', name: 'magic_doc', input: { unchanged: false, text: UPDATED } }] };
  }
  const conversation = JSON.stringify(request.body?.messages ?? []);
  if (tools.some((t) => t.name === 'Read') && conversation.includes('delete endpoint') && !conversation.includes('tool_result')) {
    return { content: [{ type: 'tool_use', id: 'toolu_read_1', name: 'Read', input: { file_path: docToRead } }] };
  }
  return { text: 'I added DELETE /users/:id.' };
}

beforeAll(async () => {
  server = await startFakeModelServer();
  server.setDefault(scriptedModel);
});
afterAll(() => server.close());

async function waitFor(check: () => boolean, timeoutMs = 60_000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) if (check()) return true;
  return check();
}

describe.each(claudeReleases)('claude %s', (release) => {
  test('the Stop hook updates the Magic Doc the agent read, and only that one', async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(repo, {
      'docs/api.md': API_DOC,
      'docs/deps.md': DEPS_DOC,
      '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'memdir docs --hook' }] }] } }),
    });
    await simpleGit(repo).add('docs').commit('docs');
    docToRead = path.join(repo, 'docs/api.md');
    const r = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'add a delete endpoint for users, see the API doc', release });
    expect(r.code, r.stderr).toBe(0);
    // The agent really read it: its Read result went back to the model.
    expect(server.messages().some((m) => m.text.includes('toolu_read_1') && m.text.includes('MAGIC DOC: API endpoints'))).toBe(true);
    const updated = await waitFor(() => fs.readFileSync(docToRead, 'utf8') === UPDATED);
    const projectFiles = () => fs.readdirSync(path.join(home, '.claude/projects'), { recursive: true, encoding: 'utf8' });
    // The run moves the session's cursor last: once it is there the run is over, and nothing races the cleanup.
    await waitFor(() => projectFiles().some((f) => f.includes(path.join('.memdir', 'docs', 'sessions')) && f.endsWith('.json')));
    const logs = projectFiles().filter((f) => f.endsWith('docs.log'));
    const log = logs.map((f) => fs.readFileSync(path.join(home, '.claude/projects', f), 'utf8')).join('\n');
    expect(updated, `doc: ${fs.readFileSync(docToRead, 'utf8')}\nlog: ${log}\nstderr: ${r.stderr}`).toBe(true);
    expect(fs.readFileSync(path.join(repo, 'docs/deps.md'), 'utf8')).toBe(DEPS_DOC);
    const call = server.messages().find((m) => (m.body?.tools ?? []).some((t: { name?: string }) => t.name === 'magic_doc'))!;
    expect(call.body.messages[0].content).toContain('add a delete endpoint for users');
    expect(call.body.messages[0].content).toContain(API_DOC);
    expect(log).toContain('memdir docs: updating docs/api.md');
  }, 180_000);
});
