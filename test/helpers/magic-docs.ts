/** Real git repositories with Magic Docs and Claude Code transcripts of a turn that read one, for the docs tests. */
import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import type { FakeModelServer, ScriptedReply } from './fake-model-server.js';
import { createRepo } from './git-repo.js';
import { cleanEnv, runMemdir } from './run-cli.js';
import { tempDir } from './temp.js';

export const API_DOC = '# MAGIC DOC: API endpoints\n_One line per endpoint, method and path first._\n\n- GET /users: list the users\n';
export const DEPS_DOC = '# MAGIC DOC: Dependencies\n\n| package | why |\n|---|---|\n| yargs | the command line |\n';
export const UPDATED_API = `${API_DOC}- DELETE /users/:id: remove a user\n`;

export type Line = Record<string, unknown>;

/** A Claude Code transcript of one turn: the user asks, the agent reads `read` (a Read tool use), edits src/api.ts and runs the tests. */
export function turnLines(root: string, read: string, opts: { session?: string; prefix?: string } = {}): Line[] {
  const session = opts.session ?? 'sess-docs';
  const p = opts.prefix ?? '';
  const base = { sessionId: session, cwd: root, timestamp: '2026-12-05T10:00:00Z' };
  return [
    { ...base, type: 'user', uuid: `${p}u1`, parentUuid: null, message: { role: 'user', content: 'add an endpoint to delete a user' } },
    {
      ...base,
      type: 'assistant',
      uuid: `${p}a1`,
      parentUuid: `${p}u1`,
      message: { id: `${p}msg1`, role: 'assistant', content: [{ type: 'tool_use', id: `${p}t1`, name: 'Read', input: { file_path: path.join(root, read) } }] },
    },
    {
      ...base,
      type: 'user',
      uuid: `${p}u2`,
      parentUuid: `${p}a1`,
      toolUseResult: {},
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `${p}t1`, content: '     1\u2192(the file)' }] },
    },
    {
      ...base,
      type: 'assistant',
      uuid: `${p}a2`,
      parentUuid: `${p}u2`,
      message: {
        id: `${p}msg2`,
        role: 'assistant',
        content: [
          { type: 'text', text: 'I added DELETE /users/:id in src/api.ts.' },
          { type: 'tool_use', id: `${p}t2`, name: 'Edit', input: { file_path: path.join(root, 'src/api.ts'), old_string: 'a', new_string: 'b' } },
          { type: 'tool_use', id: `${p}t3`, name: 'Bash', input: { command: 'npm test' } },
        ],
      },
    },
    {
      ...base,
      type: 'user',
      uuid: `${p}u3`,
      parentUuid: `${p}a2`,
      toolUseResult: {},
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: `${p}t2`, content: 'edited' },
          { type: 'tool_result', tool_use_id: `${p}t3`, content: '12 tests passed' },
        ],
      },
    },
  ];
}

export const jsonl = (lines: Line[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

export interface Workspace {
  root: string;
  dir: string;
  home: string;
  transcript: string;
  env: NodeJS.ProcessEnv;
}

export async function workspace(server: FakeModelServer, read = 'docs/api.md'): Promise<Workspace> {
  const top = tempDir('memdir-docs-');
  const root = await createRepo(path.join(top, 'repo'));
  fs.mkdirSync(path.join(root, 'docs'));
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'docs/api.md'), API_DOC);
  fs.writeFileSync(path.join(root, 'docs/deps.md'), DEPS_DOC);
  fs.writeFileSync(path.join(root, 'docs/plain.md'), '# Plain notes\n\nnot magic\n');
  fs.writeFileSync(path.join(root, 'src/api.ts'), 'export {};\n');
  await simpleGit(root).add('.').commit('docs');
  const transcript = path.join(top, 'sess-docs.jsonl');
  fs.writeFileSync(transcript, jsonl(turnLines(root, read)));
  const home = path.join(top, 'home');
  const env = cleanEnv(home, { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url, MEMDIR_MODEL_TIMEOUT_MS: '5000' });
  return { root, dir: path.join(top, 'memory'), home, transcript, env };
}

export const answer = (input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', id: 'toolu_doc', name: 'magic_doc', input }] });
export const read = (ws: Workspace, file: string) => fs.readFileSync(path.join(ws.root, file), 'utf8');
export const docsRun = (ws: Workspace, ...args: string[]) => runMemdir(['docs', '--from', ws.transcript, '--dir', ws.dir, ...args], { cwd: ws.root, env: ws.env });
