import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { cleanEnv, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const FIXTURE = path.join(repoRoot, 'test/fixtures/claude-code-2.1.332/session-claude-code-recalled.jsonl');
const RECORDED_DIR = '/home/dev/.claude/projects/-home-dev-app/memory';
const SESSION = '5b0e7c1d-2f4a-4e8b-9c3d-7a6f5e4d3c2b';
const topic = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`;
const PROMPT = 'can I merge the mobile branch during the freeze, and what order for the billing rollout?';

/** A memory directory holding the memories of the fixture's session, and the fixture's transcript naming it. */
function workspace(extraLines: string[] = []) {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  writeTree(dir, {
    'MEMORY.md': '- [Merge freeze](project_freeze.md) — no merges\n- [Billing](project_billing.md) — rollout order\n',
    'project_freeze.md': topic('Merge freeze', 'No merges to main during the mobile release freeze', 'Hold merges to main until the release ships.'),
    'project_billing.md': topic('Billing rollout', 'Billing service rollout order', 'Roll billing out region by region, EU first.'),
  });
  const transcript = path.join(root, `${SESSION}.jsonl`);
  fs.writeFileSync(transcript, fs.readFileSync(FIXTURE, 'utf8').replaceAll(RECORDED_DIR, dir) + extraLines.join(''));
  return { root, dir, transcript, env: cleanEnv(path.join(root, 'home')) };
}

function promptHook(ws: ReturnType<typeof workspace>, session: string, args: string[] = []) {
  const input = JSON.stringify({ session_id: session, transcript_path: ws.transcript, cwd: ws.root, permission_mode: 'default', hook_event_name: 'UserPromptSubmit', prompt: PROMPT });
  return runMemdir(['recall', '--hook', '--dir', ws.dir, ...args], { cwd: ws.root, env: ws.env, input });
}

const answer = (additionalContext: string) => `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext } })}\n`;
const billing = (dir: string) =>
  `Memory (saved today): ${path.join(dir, 'project_billing.md')}:\n${topic('Billing rollout', 'Billing service rollout order', 'Roll billing out region by region, EU first.').trimEnd()}`;
const freeze = (dir: string) =>
  `Memory (saved today): ${path.join(dir, 'project_freeze.md')}:\n${topic('Merge freeze', 'No merges to main during the mobile release freeze', 'Hold merges to main until the release ships.').trimEnd()}`;

test("the prompt hook never repeats a memory Claude Code's own recall surfaced in the session; --debug says why", async () => {
  const ws = workspace();
  const hook = await promptHook(ws, SESSION);
  expect([hook.code, hook.stderr, hook.stdout]).toEqual([0, '', answer(billing(ws.dir))]);
  // The session record holds what memdir surfaced, not what Claude Code did.
  expect(JSON.parse(fs.readFileSync(path.join(ws.dir, `.memdir/recall-sessions/${SESSION}.json`), 'utf8')).surfaced).toEqual(['project_billing.md']);

  const again = await promptHook(ws, SESSION, ['--debug']);
  expect([again.code, again.stdout]).toEqual([0, '']);
  expect(again.stderr).toBe(
    [
      'memdir recall: project_billing.md skipped: memdir surfaced it earlier in this session',
      "memdir recall: project_freeze.md skipped: Claude Code's own recall surfaced it in this session (transcript)",
      '',
    ].join('\n'),
  );
});

test('a memory Claude Code surfaced before the last compaction is no longer in context: the prompt hook gives it', async () => {
  const boundary = `${JSON.stringify({ parentUuid: null, logicalParentUuid: '0b6f1e0a-1c1d-4a52-8f0e-4f0d7f6c1a03', isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: SESSION, version: '2.1.332', type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, timestamp: '2026-12-04T21:20:00.000Z', uuid: '0b6f1e0a-1c1d-4a52-8f0e-4f0d7f6c1a04', level: 'info', compactMetadata: { trigger: 'manual', preTokens: 12000 } })}\n`;
  const ws = workspace([boundary]);
  const hook = await promptHook(ws, SESSION);
  expect([hook.code, hook.stderr, hook.stdout]).toEqual([0, '', answer(`${billing(ws.dir)}\n\n${freeze(ws.dir)}`)]);
});

test('recall --json --transcript lists what it skipped and why; a transcript that is not a file is an error naming it', async () => {
  const ws = workspace();
  const run = await runMemdir(['recall', '--dir', ws.dir, '--json', '--transcript', ws.transcript, '--already-surfaced', 'project_billing.md', 'merge', 'freeze', 'billing', 'rollout'], {
    cwd: ws.root,
    env: ws.env,
  });
  expect([run.code, run.stderr]).toEqual([0, '']);
  const json = JSON.parse(run.stdout);
  expect(json.selected).toEqual([]);
  expect(json.skipped).toEqual([
    { path: 'project_billing.md', reason: 'already-surfaced' },
    { path: 'project_freeze.md', reason: 'claude-code' },
  ]);

  const bad = await runMemdir(['recall', '--dir', ws.dir, '--transcript', ws.root, 'merge'], { cwd: ws.root, env: ws.env });
  expect([bad.code, bad.stdout]).toEqual([2, '']);
  expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  expect(bad.stderr).toContain(ws.root);
});
