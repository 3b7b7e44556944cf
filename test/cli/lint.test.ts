import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

const example = path.join(repoRoot, 'examples/rotting-memory');

function workspace() {
  const root = tempDir();
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const dir = path.join(root, 'memory');
  fs.cpSync(example, dir, { recursive: true });
  return { root, home, dir, env: cleanEnv(home) };
}

const topic = (name: string, type = 'user', body = 'Text.') => `---\nname: ${name}\ndescription: ${name} matters when working on the billing service\ntype: ${type}\n---\n\n${body}\n`;

describe('memdir lint', () => {
  test('stylish report, exit 1 on errors, nothing written', async () => {
    const { root, dir, env } = workspace();
    const before = snapshotTree(dir);
    const r = await runMemdir(['lint', dir], { cwd: root, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('memory/MEMORY.md');
    expect(r.stdout).toMatch(/7:22\s+error\s+points to project_old_deploy\.md, which does not exist\s+MEM006 dead-pointer/);
    expect(r.stdout).toMatch(/"next Thursday" is relative; write 2026-03-05 \(anchored at modified: 2026-02-26\)/);
    // The index paragraph and table are one block (one MEM005 finding); the freeze note states no decision (no MEM015).
    expect(r.stdout).toMatch(/✖ 5 problems \(1 error, 4 warnings\)\n {2}by rule: MEM005 index-pointers-only 1, MEM006 dead-pointer 1, /);
    expect(snapshotTree(dir)).toEqual(before);
  });

  test('--fix-dry-run prints a diff and changes nothing; --fix applies it; a second --fix is a no-op', async () => {
    const { root, dir, env } = workspace();
    const before = snapshotTree(dir);
    const dry = await runMemdir(['lint', dir, '--fix-dry-run'], { cwd: root, env });
    expect(dry.stdout).toContain('-- [Old deploy notes](project_old_deploy.md) — replaced by the new pipeline');
    expect(dry.stdout).toContain('+Merge freeze on main starts 2026-03-05 while the mobile team cuts the release.');
    expect(snapshotTree(dir)).toEqual(before);

    const fix = await runMemdir(['lint', dir, '--fix'], { cwd: root, env });
    expect(fix.code).toBe(0);
    expect(fix.stdout).toMatch(/fixed 2 files/);
    const index = fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(index).not.toContain('project_old_deploy.md');
    expect(index).toContain('- [Grafana dashboard](reference_grafana.md) — where on-call checks API latency\n- [Pricing experiment](project_pricing.md) — ');
    const again = await runMemdir(['lint', dir, '--fix'], { cwd: root, env });
    expect(again.stdout).not.toMatch(/fixed/);
  });

  test('--format json and --format sarif with --output-file', async () => {
    const { root, dir, env } = workspace();
    const json = JSON.parse((await runMemdir(['lint', dir, '--format', 'json'], { cwd: root, env })).stdout);
    expect(json.results.find((f: { filePath: string }) => f.filePath.endsWith('MEMORY.md')).errorCount).toBe(1);
    const out = path.join(root, 'report.sarif');
    const sarif = await runMemdir(['lint', dir, '-f', 'sarif', '-o', out], { cwd: root, env });
    expect(sarif).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(fs.readFileSync(out, 'utf8')).runs[0].results.length).toBe(5);
  });

  test('--max-warnings turns warnings into a failure', async () => {
    const { root, dir, env } = workspace();
    fs.rmSync(path.join(dir, 'MEMORY.md'));
    writeTree(dir, { 'MEMORY.md': '- [User role](user_role.md) — data engineer on the billing team\n' });
    expect((await runMemdir(['lint', dir], { cwd: root, env })).code).toBe(0);
    expect((await runMemdir(['lint', dir, '--max-warnings', '0'], { cwd: root, env })).code).toBe(1);
  });

  test('config: memdir.config.json turns rules off; a bad key is exit 2 naming the key path', async () => {
    const { root, dir, env } = workspace();
    writeTree(dir, { 'memdir.config.json': JSON.stringify({ rules: { index: 'off', 'why-how': 'off', MEM014: 'off', MEM016: 'off' } }) });
    const quiet = await runMemdir(['lint', dir], { cwd: root, env });
    expect(quiet).toMatchObject({ code: 0, stdout: '' });
    writeTree(dir, { 'memdir.config.json': JSON.stringify({ rules: { 'no-such-rule': 'off' } }) });
    const bad = await runMemdir(['lint', dir], { cwd: root, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(`memdir: ${path.join(dir, 'memdir.config.json')}: rules.no-such-rule: unknown rule id, name or tag`);
  });

  test('a single file is linted within its directory', async () => {
    const { root, dir, env } = workspace();
    const r = await runMemdir(['lint', path.join(dir, 'reference_grafana.md'), '--format', 'json'], { cwd: root, env });
    const files = JSON.parse(r.stdout).results.map((f: { filePath: string }) => path.basename(f.filePath));
    expect(files).toEqual(['reference_grafana.md']);
  });

  test('no path: the resolved directory', async () => {
    const { root, home, env } = workspace();
    const project = path.join(root, 'project');
    fs.mkdirSync(project);
    const memory = path.join(home, '.claude/projects', project.replace(/[^a-zA-Z0-9]/g, '-'), 'memory');
    writeTree(memory, { 'MEMORY.md': '- [Gone](gone.md)\n' });
    const r = await runMemdir(['lint'], { cwd: project, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(path.join(memory, 'MEMORY.md'));
  });

  test('--all-in-repo finds committed .claude/memory folders', async () => {
    const { root, env } = workspace();
    const repo = await createRepo(path.join(root, 'repo'));
    writeTree(repo, { 'a/.claude/memory/MEMORY.md': '- [Gone](gone.md)\n', 'b/.claude/memory/user_x.md': topic('X') });
    const r = await runMemdir(['lint', '--all-in-repo', '--format', 'json'], { cwd: repo, env });
    expect(r.code).toBe(1);
    const files = JSON.parse(r.stdout)
      .results.map((f: { filePath: string }) => f.filePath)
      .sort();
    expect(files).toEqual(['a/.claude/memory/MEMORY.md', 'b/.claude/memory/MEMORY.md', 'b/.claude/memory/user_x.md']);
  });

  test('--staged lints the staged content, not the working tree', async () => {
    const { root, env } = workspace();
    const repo = await createRepo(path.join(root, 'repo'));
    const git = simpleGit(repo);
    writeTree(repo, { '.claude/memory/MEMORY.md': '- [X](user_x.md) — X matters when working on billing\n', '.claude/memory/user_x.md': topic('X'), 'src/app.md': '# not memory\n' });
    await git.add('.');
    await git.commit('memory');
    // Stage a broken file, then repair it in the working tree only.
    writeTree(repo, { '.claude/memory/project_y.md': '---\nname: Y\ndescription: [broken\n---\n' });
    await git.add('.claude/memory/project_y.md');
    writeTree(repo, { '.claude/memory/project_y.md': topic('Y', 'project', 'Fine.\n\n**Why:** x\n**How to apply:** y') });
    const staged = await runMemdir(['lint', '--staged'], { cwd: repo, env });
    expect(staged.code).toBe(1);
    expect(staged.stdout).toMatch(/project_y\.md[\s\S]*MEM010 frontmatter-invalid/);
    expect(staged.stdout).not.toContain('user_x.md');
    const workingTree = await runMemdir(['lint', '.claude/memory', '--format', 'json'], { cwd: repo, env });
    expect(JSON.parse(workingTree.stdout).results.flatMap((f: { messages: Array<{ ruleId: string }> }) => f.messages.map((m) => m.ruleId))).not.toContain('MEM010');
    // Nothing staged that is memory: a clean pass.
    await git.add('.claude/memory/project_y.md');
    await git.commit('fixed');
    writeTree(repo, { 'src/app.md': '# changed\n' });
    await git.add('src/app.md');
    expect(await runMemdir(['lint', '--staged'], { cwd: repo, env })).toMatchObject({ code: 0, stdout: '' });
  });

  test('a path that does not exist is a usage error', async () => {
    const { root, env } = workspace();
    const r = await runMemdir(['lint', 'nope'], { cwd: root, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nope: no such file or directory/);
  });
});
