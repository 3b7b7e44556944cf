import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const topic = (name: string, type: string, description: string) => `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n${name} body.\n`;
const DAY = 86_400_000;

function directory(): string {
  const dir = tempDir();
  writeTree(dir, {
    'MEMORY.md': '- [Merge freeze](project_freeze.md) — no merges during the mobile release\n',
    'project_freeze.md': topic('Merge freeze', 'project', 'No merges to main during the mobile release'),
    'feedback_terse.md': topic('Terse replies', 'feedback', 'User wants no recap at the end of responses'),
    'team/MEMORY.md': '- [Grafana](reference_grafana.md) — latency board\n',
    'team/reference_grafana.md': topic('Grafana', 'reference', 'API latency board on-call watches during deploys'),
    'notes.txt': 'not a memory',
  });
  const at = (file: string, daysAgo: number) => fs.utimesSync(path.join(dir, file), new Date(Date.now() - daysAgo * DAY), new Date(Date.now() - daysAgo * DAY));
  at('project_freeze.md', 3);
  at('feedback_terse.md', 0);
  at('team/reference_grafana.md', 10);
  return dir;
}

test('list: every memory newest first, with type, age and whether the index points to it; --type filters', async () => {
  const dir = directory();
  const r = await runMemdir(['list', '--dir', dir, '--json'], { cwd: dir, env: cleanEnv(dir) });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).map((m: Record<string, unknown>) => [m.path, m.type, m.ageDays, m.indexed])).toEqual([
    ['feedback_terse.md', 'feedback', 0, false],
    ['project_freeze.md', 'project', 3, true],
    ['team/reference_grafana.md', 'reference', 10, true],
  ]);
  const text = await runMemdir(['list', '--dir', dir, '--type', 'feedback'], { cwd: dir, env: cleanEnv(dir) });
  expect(text.stdout).toBe(`feedback     today  feedback_terse.md (not in the index)\n${' '.repeat(20)}Terse replies — User wants no recap at the end of responses\n`);
});

test('show: one memory by name or file, with the freshness header recall uses; unknown is a refusal', async () => {
  const dir = directory();
  const byName = await runMemdir(['show', 'Merge freeze', '--dir', dir], { cwd: dir, env: cleanEnv(dir) });
  expect(byName.code).toBe(0);
  expect(byName.stdout).toBe(
    `This memory is 3 days old. Memories are point-in-time observations, not live state — claims about code behavior or file:line citations may be outdated. Verify against current code before asserting as fact.\nMemory: ${path.join(dir, 'project_freeze.md')}:\n${topic('Merge freeze', 'project', 'No merges to main during the mobile release')}`,
  );
  const byFile = await runMemdir(['show', 'team/reference_grafana.md', '--dir', dir, '--json'], { cwd: dir, env: cleanEnv(dir) });
  expect(JSON.parse(byFile.stdout)).toMatchObject({ path: 'team/reference_grafana.md' });
  const missing = await runMemdir(['show', 'Nothing like it', '--dir', dir], { cwd: dir, env: cleanEnv(dir) });
  expect([missing.code, missing.stderr.trim().split('\n')]).toEqual([1, [`memdir: no memory named "Nothing like it" in ${dir}`]]);
  const outside = await runMemdir(['show', '../etc/passwd.md', '--dir', dir], { cwd: dir, env: cleanEnv(dir) });
  expect(outside.code).toBe(1);
});
