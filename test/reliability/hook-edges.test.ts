import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

// Hooks run in the background of every session: what they print stays short, and a session whose
// project was deleted gets a one-line note, not a memory directory named after the deleted path.

test('dream --hook, due on a directory with many changes and many findings, prints a short summary on stderr and nothing on stdout', async () => {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  const files: Record<string, string> = {};
  const index = ['# Memory', ''];
  for (let i = 0; i < 150; i++) {
    // No `modified:`, so each relative date is left for the user, one finding per file.
    files[`project_train${i}.md`] =
      `---\nname: Train ${i}\ndescription: Release train number ${i} for the mobile app\ntype: project\n---\n\nRelease train ${i} leaves next Friday.\n\n**Why:** cadence.\n**How to apply:** plan.\n`;
    index.push(`- [Train ${i}](project_train${i}.md) — Release train number ${i} for the mobile app`);
  }
  for (let i = 0; i < 100; i++) index.push(`- [Gone ${i}](reference_gone${i}.md) — removed long ago, number ${i}`);
  writeTree(dir, { ...files, 'MEMORY.md': `${index.join('\n')}\n` });
  const input = JSON.stringify({ session_id: 's1', cwd: root, hook_event_name: 'SessionEnd', reason: 'exit' });
  const hook = await runMemdir(['dream', '--hook', '--dir', dir, '--min-hours', '0', '--min-sessions', '0'], { cwd: root, env: cleanEnv(path.join(root, 'home')), input });
  expect(hook.code).toBe(0);
  expect(hook.stdout).toBe('');
  const lines = hook.stderr.trimEnd().split('\n');
  expect(lines.length, hook.stderr).toBeLessThanOrEqual(4);
  expect(lines[0]).toMatch(/^memdir dream: Improved .*100 dead pointers dropped/);
  expect(hook.stderr).toMatch(/150 item\(s\) left for you/);
  const report = /report: (.+\.md)$/m.exec(hook.stderr)?.[1];
  expect(report && fs.readFileSync(report, 'utf8')).toMatch(/Left for you:/);
});

const hooks = [
  ['context', ['context', '--hook'], { hook_event_name: 'SessionStart', source: 'startup' }],
  ['recall', ['recall', '--hook'], { hook_event_name: 'UserPromptSubmit', prompt: 'where do the deploy windows live' }],
  ['extract', ['extract', '--hook', '--engine', 'local'], { hook_event_name: 'Stop' }],
  ['session', ['session', '--hook'], { hook_event_name: 'Stop' }],
  ['dream', ['dream', '--hook', '--min-hours', '0', '--min-sessions', '0'], { hook_event_name: 'SessionEnd', reason: 'exit' }],
] as const;

test.each(hooks)('%s --hook with a deleted session directory: exit 0, one line on stderr, nothing created', async (_name, args, fields) => {
  const root = tempDir();
  const home = path.join(root, 'home');
  const gone = path.join(root, 'project-gone');
  const transcript = path.join(root, 'sess-1.jsonl');
  fs.writeFileSync(
    transcript,
    `${JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 'sess-1', timestamp: '2026-11-30T10:00:00Z', message: { role: 'user', content: 'remember: deploys happen only on Tuesdays' } })}\n`,
  );
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  const input = JSON.stringify({ session_id: 'sess-1', transcript_path: transcript, cwd: gone, ...fields });
  const hook = await runMemdir([...args], { cwd: root, env: cleanEnv(home), input });
  expect(hook.code).toBe(0);
  expect(hook.stderr.trimEnd().split('\n'), hook.stderr).toEqual([expect.stringMatching(/project-gone no longer exists/)]);
  expect(fs.readdirSync(path.join(home, '.claude'))).toEqual([]);
});
