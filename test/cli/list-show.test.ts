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
  expect(text.stdout).toBe(`feedback     today  private  feedback_terse.md (not in the index)\n${' '.repeat(29)}Terse replies — User wants no recap at the end of responses\n`);
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

/** A Latin-1 index and topic file (é is the single byte 0xE9) beside a UTF-16 topic file with its byte-order mark. */
function mixedEncodings(): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'MEMORY.md'), Buffer.from('- [Caf\xe9 rules](cafe.md) \u2014 the caf\xe9 deploys\n', 'latin1'));
  fs.writeFileSync(
    path.join(dir, 'cafe.md'),
    Buffer.from('---\nname: Caf\xe9 rules\ndescription: Deploy rules of the caf\xe9 service\ntype: project\n---\nThe caf\xe9 deploys on Fridays.\n', 'latin1'),
  );
  const wide = topic('Kiosk board', 'reference', 'Where the kiosk deploy dashboard lives');
  fs.writeFileSync(path.join(dir, 'wide.md'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(wide, 'utf16le')]));
  return dir;
}

test('list: a file it cannot read is named on stderr, never silently left out; an unreadable index leaves "indexed" unknown', async () => {
  const dir = mixedEncodings();
  const r = await runMemdir(['list', '--dir', dir, '--json'], { cwd: dir, env: cleanEnv(dir) });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).map((m: Record<string, unknown>) => [m.path, m.indexed])).toEqual([['wide.md', null]]);
  expect(r.stderr.trim().split('\n')).toEqual([
    'memdir list: MEMORY.md: not valid UTF-8 text (byte 0xE9 on line 1); memdir leaves it alone; which memories it points to is not known',
    'memdir list: cafe.md left out: not valid UTF-8 text (byte 0xE9 on line 2); memdir leaves it alone',
  ]);
  const text = await runMemdir(['list', '--dir', dir], { cwd: dir, env: cleanEnv(dir) });
  expect(text.stdout).not.toContain('not in the index');
});

test('show: an index it cannot read does not stop it; a topic file it cannot read is a one-line error, exit 2; no byte-order mark in the text', async () => {
  const dir = mixedEncodings();
  const wide = await runMemdir(['show', 'Kiosk board', '--dir', dir], { cwd: dir, env: cleanEnv(dir) });
  expect(wide.code).toBe(0);
  expect(wide.stdout).toBe(`Memory (saved today): ${path.join(dir, 'wide.md')}:\n${topic('Kiosk board', 'reference', 'Where the kiosk deploy dashboard lives')}`);
  const latin1 = await runMemdir(['show', 'cafe.md', '--dir', dir], { cwd: dir, env: cleanEnv(dir) });
  expect([latin1.code, latin1.stdout, latin1.stderr]).toEqual([2, '', `memdir: ${path.join(dir, 'cafe.md')}: not valid UTF-8 text (byte 0xE9 on line 2); memdir leaves it alone\n`]);
  expect(fs.readFileSync(path.join(dir, 'cafe.md'), 'latin1')).toContain('caf\xe9 deploys');
});
