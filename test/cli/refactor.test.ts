import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

const actorForth = fixtureMemoryDirs().find((d) => d.includes('ActorForth'))!;

function workspace(source = actorForth) {
  const root = tempDir();
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const dir = path.join(root, 'memory');
  fs.cpSync(source, dir, { recursive: true });
  return { root, dir, env: cleanEnv(home) };
}

const withoutState = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).filter(([k]) => !k.startsWith('.memdir')));

describe('memdir refactor', () => {
  test('--dry-run prints the audit and a diff and changes nothing', async () => {
    const { root, dir, env } = workspace();
    const before = snapshotTree(dir);
    const r = await runMemdir(['refactor', '--dir', dir, '--dry-run'], { cwd: root, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('+++ b/project_type_system.md');
    expect(r.stdout).toMatch(/index before: 164 lines, 11,101 bytes, 0 pointers, 124 inline content lines/);
    expect(r.stdout).toMatch(/would change 20 file\(s\): 19 created/);
    expect(snapshotTree(dir)).toEqual(before);
  });

  test('a real run writes the layout; a second run changes no byte; --json reports it', async () => {
    const { root, dir, env } = workspace();
    const first = await runMemdir(['refactor', '--dir', dir, '--json'], { cwd: root, env });
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ written: true, before: { lines: 164, complete: true }, after: { inlineLines: 0 } });
    expect(report.files).toHaveLength(20);
    const after = snapshotTree(dir);
    const second = await runMemdir(['refactor', '--dir', dir, '--json'], { cwd: root, env });
    expect(JSON.parse(second.stdout)).toMatchObject({ written: false, files: [] });
    expect(withoutState(snapshotTree(dir))).toEqual(withoutState(after));
    const lint = await runMemdir(['lint', dir, '--format', 'json'], { cwd: root, env });
    const messages: Array<{ ruleId: string; message: string }> = JSON.parse(lint.stdout).results.flatMap((f: { messages: unknown[] }) => f.messages);
    // Refactor shortens a line only past Claude Code's ~200-character warning; lint advises from 175.
    const advice = (m: { ruleId: string; message: string }) => m.ruleId === 'MEM004' && Number(/line is (\d+) characters/.exec(m.message)?.[1]) <= 200;
    expect(messages.filter((m) => m.ruleId !== 'MEM015' && !advice(m)).map((m) => m.ruleId)).toEqual([]);
  });

  test('--anchor-date resolves relative dates against the given day', async () => {
    const { root, dir, env } = workspace(tempDir());
    writeTree(dir, { 'MEMORY.md': '## Release\nThe freeze starts next Thursday.\n' });
    const r = await runMemdir(['refactor', '--dir', dir, '--anchor-date', '2026-02-26'], { cwd: root, env });
    expect(r.stdout).toContain('"next Thursday" → 2026-03-05 (anchored at --anchor-date 2026-02-26)');
    expect(fs.readFileSync(path.join(dir, 'project_release.md'), 'utf8')).toContain('The freeze starts 2026-03-05.');
    const bad = await runMemdir(['refactor', '--dir', dir, '--anchor-date', 'soon'], { cwd: root, env });
    expect(bad.code).toBe(2);
  });

  test('an over-limit index: the report lists every demoted pointer with its reason; the "always apply" rules stay loaded', async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    const memory = (name: string) => `---\nname: ${name}\ndescription: ${name} for the team\ntype: project\n---\n\nWhat ${name} says.\n`;
    const files: Record<string, string> = {};
    const lines = ['# Memory', '', '## Behaviour rules (always apply)', '- [Release check](project_release_check.md) — check the changelog before each release'];
    files['project_release_check.md'] = memory('Release check');
    lines.push('', '## Sprint history');
    for (let i = 0; i < 210; i++) {
      lines.push(`- [Sprint ${i}](project_sprint_${i}.md) — what shipped in sprint ${i}`);
      files[`project_sprint_${i}.md`] = memory(`Sprint ${i}`);
    }
    writeTree(dir, { ...files, 'MEMORY.md': `${lines.join('\n')}\n` });
    const r = await runMemdir(['refactor', '--dir', dir, '--dry-run'], { cwd: root, env: cleanEnv(path.join(root, 'home')) });
    expect(r.code, r.stderr).toBe(0);
    const demoted = r.stdout.split('\n').filter((l) => l.includes(' moved to index_project.md: '));
    expect(demoted.length).toBeGreaterThan(0);
    expect(demoted.every((l) => /pointer to project_sprint_\d+\.md moved to index_project\.md: a project memory: the index does not fit/.test(l))).toBe(true);
    expect(r.stdout).not.toContain('pointer to project_release_check.md moved');
  });

  test('a missing directory is exit 2', async () => {
    const { root, env } = workspace();
    const r = await runMemdir(['refactor', '--dir', path.join(root, 'nope')], { cwd: root, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no memory directory here/);
  });
});
