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
  test('--dry-run prints the audit, what the agent would see and one line per file, and changes nothing; --diff adds the diff', async () => {
    const { root, dir, env } = workspace();
    const before = snapshotTree(dir);
    const r = await runMemdir(['refactor', '--dir', dir, '--dry-run'], { cwd: root, env });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/^index before: 164 lines, 11,101 bytes, 0 pointers, 124 inline content lines/);
    expect(r.stdout).toMatch(/^what the agent loads of MEMORY\.md: 164 → \d+ lines, 11,014 → [\d,]+ characters, 1,389 → [\d,]+ words/m);
    expect(r.stdout).toMatch(/^standing rules the agent sees: 6 → \d+/m);
    expect(r.stdout).toContain('would touch 20 file(s): 1 changed, 19 created, 0 deleted');
    expect(r.stdout).toMatch(/^ {2}changed MEMORY\.md \(164 → \d+ lines\)$/m);
    expect(r.stdout).toContain('  created project_type_system.md (14 lines): project memory from MEMORY.md lines 27–32\n');
    expect(r.stdout).not.toMatch(/^(---|\+\+\+|@@) /m);
    expect(snapshotTree(dir)).toEqual(before);

    const diff = await runMemdir(['refactor', '--dir', dir, '--dry-run', '--diff'], { cwd: root, env });
    expect(diff.code).toBe(0);
    // The report first, then the diff; a created file is named in a header of its own.
    expect(diff.stdout.startsWith(r.stdout)).toBe(true);
    expect(diff.stdout).toContain('\nnew file: project_type_system.md\n@@ -0,0 +1,14 @@\n+---\n');
    expect(diff.stdout).toContain('--- a/MEMORY.md\n+++ b/MEMORY.md\n');
    expect(diff.stdout).not.toContain('/dev/null');
    expect(snapshotTree(dir)).toEqual(before);
  });

  test('a real run writes the layout; a second run changes no byte; --json reports it', async () => {
    const { root, dir, env } = workspace();
    const first = await runMemdir(['refactor', '--dir', dir, '--json'], { cwd: root, env });
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ written: true, before: { lines: 164, complete: true }, after: { inlineLines: 0 } });
    const { agentView } = report;
    expect(agentView).toMatchObject({ loaded: { before: { lines: 164, characters: 11014, words: 1389 } }, rules: { before: 6 }, counts: { changed: 1, created: 19, deleted: 0 } });
    expect(agentView.rules.after).toBe(6 - agentView.rules.lost.length);
    // Each rule moved out of what the agent loads is named, with where its words went, as the human report names it.
    const human = await runMemdir(['refactor', '--dir', workspace().dir, '--dry-run'], { cwd: root, env });
    for (const lost of agentView.rules.lost as Array<{ rule: string; keptIn: string | null }>) {
      expect(lost.keptIn).not.toBeNull();
      expect(human.stdout).toContain(`  no longer loaded: "${lost.rule}" (now only in ${lost.keptIn})`);
    }
    expect(report.diff).toBeUndefined();
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
