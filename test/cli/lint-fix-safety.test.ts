import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandExample } from '../../src/core/secrets.js';
import { simpleGit } from 'simple-git';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const token = expandExample('ghp_{an:36}');
const topic = (name: string, description: string, type = 'feedback') =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\nText.\n\n**Why:** reasons.\n**How to apply:** always.\n`;

function memoryDir(files: Record<string, string>) {
  const root = tempDir();
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const dir = path.join(root, 'memory');
  writeTree(dir, files);
  return { root, dir, env: cleanEnv(home) };
}

describe('lint --fix on real-shaped directories', () => {
  test('nothing to write: no lock, no .memdir/', async () => {
    const { root, dir, env } = memoryDir({
      'MEMORY.md': '- [Terse](feedback_terse.md) — no recap at the end of responses\n',
      'feedback_terse.md': topic('Terse', 'No recap at the end of each response'),
    });
    const r = await runMemdir(['lint', dir, '--fix'], { cwd: root, env });
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(dir, '.memdir'))).toBe(false);
  });

  test('hand-off notes are not indexed; an added pointer sits in its type section, within 150 characters, without the secret', async () => {
    const pointers = Array.from({ length: 5 }, (_, i) => `- [Rule ${i}](feedback_rule${i}.md) — rule ${i} of the review process`).join('\n');
    const rules = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`feedback_rule${i}.md`, topic(`Rule ${i}`, `Rule ${i} of the review process for pull requests`)]));
    const { root, dir, env } = memoryDir({
      'MEMORY.md': `# Memory\n\n## Feedback\n${pointers}\n\n## Project\n- [Freeze](project_freeze.md) — merge freeze for the mobile release\n`,
      'project_freeze.md': topic('Freeze', 'Merge freeze for the mobile release', 'project'),
      ...rules,
      'feedback_long.md': topic('Long hook', `Reviews must cover ${'every changed line and every test that the change touches, '.repeat(4)}end`),
      'feedback_ci.md': topic('CI token', `The CI token is ${token} for the deploy job`),
      'LAST_SESSION.md': 'Stopped in the middle of the parser refactor.\n',
      'README.md': '# About this folder\n',
    });
    const r = await runMemdir(['lint', dir, '--fix'], { cwd: root, env });
    expect(r.stdout + r.stderr).not.toContain(token);
    const index = fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(index).not.toContain(token);
    expect(index).not.toMatch(/LAST_SESSION|README/);
    const lines = index.split('\n');
    const added = lines.filter((l) => /feedback_long|feedback_ci/.test(l));
    expect(added).toHaveLength(2);
    for (const line of added) expect(line.length).toBeLessThanOrEqual(150);
    // Both land in the Feedback section, before ## Project.
    for (const line of added) expect(lines.indexOf(line)).toBeLessThan(lines.indexOf('## Project'));
    expect(added.find((l) => l.includes('feedback_ci'))).toBe('- [CI token](feedback_ci.md)');
  });

  test('an index with no room in its first 200 lines gets no pointer past them', async () => {
    const filler = Array.from({ length: 205 }, (_, i) => `- [Link ${i}](https://example.com/${i}) — external page ${i}`).join('\n');
    const { root, dir, env } = memoryDir({ 'MEMORY.md': `${filler}\n`, 'feedback_terse.md': topic('Terse', 'No recap at the end of each response') });
    const r = await runMemdir(['lint', dir, '--fix', '--format', 'json'], { cwd: root, env });
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe(`${filler}\n`);
    const messages = JSON.parse(r.stdout).results.flatMap((f: { messages: Array<{ message: string }> }) => f.messages.map((m) => m.message));
    expect(messages).toContain('not listed in MEMORY.md, and its first 200 lines have no room for a pointer; run memdir refactor');
  });

  test.each([['--json'], ['--format', 'json'], ['--format', 'sarif']])('--fix-dry-run %s: stdout is one document, the diff on stderr and redacted', async (...format) => {
    const { root, dir, env } = memoryDir({
      'MEMORY.md': '- [Gone](project_gone.md) — removed\n',
      'project_deploy.md': `---\nname: Deploy\ndescription: How the deploy job authenticates\ntype: project\nmodified: 2026-03-02\n---\n\nDeploy runs tomorrow with token ${token}.\n`,
    });
    const r = await runMemdir(['lint', dir, '--fix-dry-run', ...format], { cwd: root, env });
    expect(() => JSON.parse(r.stdout)).not.toThrow();
    expect(r.stderr).toContain('+Deploy runs 2026-03-03 with token [REDACTED].');
    expect(r.stdout + r.stderr).not.toContain(token);
    expect(fs.existsSync(path.join(dir, '.memdir'))).toBe(false);
  });

  test('personal data in memory committed to a repository: not the own git e-mail, never printed', async () => {
    const root = tempDir();
    const home = path.join(root, 'home');
    fs.mkdirSync(home);
    const repo = await createRepo(path.join(root, 'repo'));
    await simpleGit(repo).addConfig('user.email', 'me@home.dev');
    const dir = path.join(repo, '.claude/memory');
    writeTree(dir, {
      'MEMORY.md': '- [Vendor](project_vendor.md) — storage vendor contact for the renewal\n',
      'project_vendor.md': topic('Vendor', 'The storage vendor contact for the contract renewal', 'project').replace('Text.', 'Ask jane.doe@acme-storage.io; copy me@home.dev.'),
    });
    await simpleGit(repo).add('.');
    await simpleGit(repo).commit('memory');
    const r = await runMemdir(['lint', dir, '--format', 'json'], { cwd: repo, env: cleanEnv(home) });
    const messages = JSON.parse(r.stdout).results.flatMap((f: { messages: Array<{ ruleId: string; column: number }> }) => f.messages.filter((m) => m.ruleId === 'MEM024'));
    expect(messages.map((m: { column: number }) => m.column)).toEqual([5]);
    expect(r.stdout).not.toContain('jane.doe');
  });

  test('a relative date with only the file time is reported, not rewritten; --anchor-date makes it rewritable', async () => {
    const body = '---\nname: Vendor call\ndescription: Follow-up call with the storage vendor about the renewal\ntype: project\n---\n\nThe vendor calls back tomorrow.\n';
    const { root, dir, env } = memoryDir({ 'MEMORY.md': '- [Vendor call](project_call.md) — storage vendor renewal follow-up\n', 'project_call.md': body });
    const plain = await runMemdir(['lint', dir, '--fix'], { cwd: root, env });
    expect(plain.stdout).toContain('only the file time');
    expect(fs.readFileSync(path.join(dir, 'project_call.md'), 'utf8')).toBe(body);
    await runMemdir(['lint', dir, '--fix', '--anchor-date', '2026-03-02'], { cwd: root, env });
    expect(fs.readFileSync(path.join(dir, 'project_call.md'), 'utf8')).toContain('The vendor calls back 2026-03-03.');
    expect((await runMemdir(['lint', dir, '--anchor-date', '2026-02-30'], { cwd: root, env })).code).toBe(2);
  });
});
