import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandExample } from '../../src/core/secrets.js';
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
});
