import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { runRecorded } from '../helpers/load-recorder.js';
import { cleanEnv, memdirBin, repoRoot, runProcess } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

const topic = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`;

function workspace() {
  const root = tempDir();
  const home = path.join(root, 'home');
  const dir = path.join(root, 'memory');
  const files: Record<string, string> = { 'MEMORY.md': '- [Merge freeze](project_freeze.md) — no merges\n' };
  files['project_freeze.md'] = topic('Merge freeze', 'No merges to main during the mobile release freeze', 'Hold merges to main until the release ships.');
  for (let i = 0; i < 40; i++) files[`project_note_${i}.md`] = topic(`Note ${i}`, `Billing service rollout note ${i}`, `billing rollout details ${i}`);
  writeTree(dir, files);
  return { root, dir, env: cleanEnv(home) };
}

/** One UserPromptSubmit through `entry` (the bin with its fast path, or the full CLI), with what it loaded and read. */
function prompt(ws: ReturnType<typeof workspace>, entry: string, session: string, text: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const input = JSON.stringify({ session_id: session, prompt: text, cwd: ws.root, hook_event_name: 'UserPromptSubmit', transcript_path: '/x.jsonl' });
  return runRecorded(ws.root, [entry, 'recall', '--hook', '--dir', ws.dir, ...extraArgs], { env: { ...ws.env, ...env }, input });
}

const fullCli = path.join(repoRoot, 'dist/cli.cjs');
const session = (ws: ReturnType<typeof workspace>, id: string) => fs.readFileSync(path.join(ws.dir, '.memdir/recall-sessions', `${id}.json`), 'utf8');

describe('recall --hook fast path', () => {
  test('answers without the CLI, exactly as the full CLI does, with the same session state', async () => {
    const ws = workspace();
    const questions = ['can I merge the mobile branch during the freeze?', 'what about the billing rollout notes?', 'and the billing rollout again?', 'thanks'];
    for (const question of questions) {
      const fast = await prompt(ws, memdirBin, 'fast', question, ['--limit', '3']);
      const full = await prompt(ws, fullCli, 'full', question, ['--limit', '3']);
      expect(fast).toMatchObject({ code: 0, stderr: '' });
      expect(full).toMatchObject({ code: 0, stderr: '' });
      expect(fast.stdout).toBe(full.stdout);
      expect(fast.modules.some((m) => m.endsWith('dist/cli.cjs'))).toBe(false);
      expect(fast.modules.some((m) => m.includes('/yargs/') || m.includes('/fast-glob/'))).toBe(false);
      // Neither path loads the sentence model: the hook ranks on words.
      expect([fast, full].map((run) => run.modules.some((m) => m.includes('/@energetic-ai/')))).toEqual([false, false]);
      expect(full.modules.some((m) => m.endsWith('dist/cli.cjs'))).toBe(true);
    }
    expect(session(ws, 'fast')).toBe(session(ws, 'full'));
    expect(JSON.parse(session(ws, 'fast')).surfaced.length).toBeGreaterThan(1);
  });

  test('on a warm index it reads the index and the chosen files, no other memory', async () => {
    const ws = workspace();
    await prompt(ws, memdirBin, 'build', 'warm the index up please');
    const warm = await prompt(ws, memdirBin, 'warm', 'can I merge the mobile branch during the freeze?');
    expect(JSON.parse(warm.stdout).hookSpecificOutput.additionalContext).toContain('Merge freeze');
    const memoriesRead = warm.read.filter((file) => file.startsWith(ws.dir) && file.endsWith('.md'));
    expect(memoriesRead).toEqual([path.join(ws.dir, 'project_freeze.md')]);
    expect(warm.read).toContain(path.join(ws.dir, '.memdir/recall-index.jsonl'));
  });

  test('the claude engine answers through the fast path too', async () => {
    const ws = workspace();
    server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_1', name: 'select_memories', input: { selected_memories: ['project_note_7.md'] } }] });
    const before = server.messages().length;
    const r = await prompt(ws, memdirBin, 'claude', 'what did we note about rollouts?', [], { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.modules.some((m) => m.endsWith('dist/cli.cjs'))).toBe(false);
    expect(server.messages().length).toBe(before + 1);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('Billing service rollout note 7');
  });

  test('a command line that is not a hook never loads the fast bundle (its code cache would hold only the probe)', async () => {
    const ws = workspace();
    const plain = await runRecorded(ws.root, [memdirBin, 'recall', '--no-semantic', '--dir', ws.dir, 'merge freeze'], { env: ws.env });
    expect(plain.code).toBe(0);
    expect([plain.modules.some((m) => m.endsWith('dist/fast/recall.cjs')), plain.modules.some((m) => m.endsWith('dist/cli.cjs'))]).toEqual([false, true]);
    const hook = await prompt(ws, memdirBin, 'hook', 'can I merge the mobile branch during the freeze?');
    expect([hook.modules.some((m) => m.endsWith('dist/fast/recall.cjs')), hook.modules.some((m) => m.endsWith('dist/cli.cjs'))]).toEqual([true, false]);
  });

  test('command lines it does not fully understand go to the full CLI, with its messages', async () => {
    const ws = workspace();
    const input = JSON.stringify({ session_id: 's', prompt: 'merge the mobile branch', cwd: ws.root });
    const bad = await runProcess(process.execPath, [memdirBin, 'recall', '--hook', '--dir', ws.dir, '--limit', '0'], { cwd: ws.root, env: ws.env, input });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit/);
    const json = await runProcess(process.execPath, [memdirBin, 'recall', '--hook', '--dir', ws.dir, '--json'], { cwd: ws.root, env: ws.env, input });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).hookSpecificOutput.additionalContext).toContain('Merge freeze');
  });
});
