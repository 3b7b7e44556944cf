import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

function workspace() {
  const root = tempDir();
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  fs.mkdirSync(home);
  fs.mkdirSync(project);
  const dir = path.join(root, 'memory');
  return { root, home, project, dir, env: cleanEnv(home) };
}

const read = (file: string) => fs.readFileSync(file, 'utf8');

describe('memdir where', () => {
  test('prints the directory on stdout and how it was found on stderr', async () => {
    const { home, project, env } = workspace();
    const r = await runMemdir(['where'], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${path.join(home, '.claude/projects', project.replace(/[^a-zA-Z0-9]/g, '-'), 'memory')}\n`);
    expect(r.stderr).toMatch(/default location for the project at/);
  });

  test('--json names the rule and the settings file', async () => {
    const { home, project, env } = workspace();
    writeTree(project, { '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: '~/team-mem' }) });
    const r = await runMemdir(['where', '--json'], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      dir: path.join(home, 'team-mem'),
      rule: 'setting',
      source: 'local',
      file: path.join(project, '.claude/settings.local.json'),
    });
  });

  test('a hostile committed setting is ignored with a warning, honoured only on opt-in', async () => {
    const { home, project, env } = workspace();
    writeTree(project, { '.claude/settings.json': JSON.stringify({ autoMemoryDirectory: '~/.ssh' }) });
    const ignored = await runMemdir(['where'], { cwd: project, env });
    expect(ignored.code).toBe(0);
    expect(ignored.stdout).not.toContain('.ssh');
    expect(ignored.stderr).toContain(`ignoring autoMemoryDirectory "~/.ssh" in ${path.join(project, '.claude/settings.json')}`);
    const flag = await runMemdir(['where', '--trust-project-settings'], { cwd: project, env });
    expect(flag.stdout).toBe(`${path.join(home, '.ssh')}\n`);
    const envOptIn = await runMemdir(['where'], { cwd: project, env: { ...env, MEMDIR_TRUST_PROJECT_SETTINGS: '1' } });
    expect(envOptIn.stdout).toBe(`${path.join(home, '.ssh')}\n`);
  });

  test('broken settings: one line naming the file, exit 2, no stack trace', async () => {
    const { project, env } = workspace();
    writeTree(project, { '.claude/settings.local.json': '{"autoMemoryDirectory": ' });
    const r = await runMemdir(['where'], { cwd: project, env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(path.join(project, '.claude/settings.local.json'));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const debug = await runMemdir(['where', '--debug'], { cwd: project, env });
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});

describe('memdir save and forget', () => {
  test('save writes the topic file and its pointer; saving the same name updates in place', async () => {
    const { project, dir, env } = workspace();
    const args = ['save', '--dir', dir, '--type', 'feedback', '--name', 'Terse replies', '--description', 'User wants no recap at the end'];
    const first = await runMemdir([...args, '--body', 'Skip the trailing summary.\n\n**Why:** reads diffs.'], { cwd: project, env });
    expect(first).toMatchObject({ code: 0, stdout: 'saved feedback_terse_replies.md\n' });
    expect(read(path.join(dir, 'feedback_terse_replies.md'))).toBe(
      '---\nname: Terse replies\ndescription: User wants no recap at the end\ntype: feedback\n---\n\nSkip the trailing summary.\n\n**Why:** reads diffs.\n',
    );
    expect(read(path.join(dir, 'MEMORY.md'))).toBe('- [Terse replies](feedback_terse_replies.md) — User wants no recap at the end\n');

    // An extra key written by someone else survives the update.
    const file = path.join(dir, 'feedback_terse_replies.md');
    fs.writeFileSync(file, read(file).replace('type: feedback\n', 'type: feedback\noriginSessionId: 4f1c\n'));
    const second = await runMemdir([...args.slice(0, -1), 'No recap, ever', '--json'], { cwd: project, env, input: 'Never recap.\n' });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ file: 'feedback_terse_replies.md', created: false });
    expect(read(file)).toBe('---\nname: Terse replies\ndescription: No recap, ever\ntype: feedback\noriginSessionId: 4f1c\n---\n\nNever recap.\n');
    expect(read(path.join(dir, 'MEMORY.md'))).toBe('- [Terse replies](feedback_terse_replies.md) — No recap, ever\n');
  });

  test('a new pointer joins an index with other content without disturbing it', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'MEMORY.md': '# Memory\r\n\r\n## Project\r\n- [Old](project_old.md) — old one\r\n\r\nFooter note\r\n' });
    const r = await runMemdir(['save', '--dir', dir, '--type', 'project', '--name', 'Merge freeze', '--description', 'No merges to main until 2026-03-05', '--body', 'x'], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(read(path.join(dir, 'MEMORY.md'))).toBe(
      '# Memory\r\n\r\n## Project\r\n- [Old](project_old.md) — old one\r\n- [Merge freeze](project_merge_freeze.md) — No merges to main until 2026-03-05\r\n\r\nFooter note\r\n',
    );
  });

  test('a pointer saved past what the agent loads of the index (200 lines) is saved, with a warning saying so', async () => {
    const { project, dir, env } = workspace();
    const pointers = Array.from({ length: 205 }, (_, i) => `- [Old ${i}](project_old_${i}.md) — old memory number ${i}`);
    writeTree(dir, { 'MEMORY.md': `${pointers.join('\n')}\n` });
    const args = ['save', '--dir', dir, '--type', 'project', '--name', 'Merge freeze', '--description', 'No merges to main until 2026-03-05', '--body', 'x'];
    const r = await runMemdir([...args, '--json'], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: 'project_merge_freeze.md', loaded: false });
    expect(r.stderr).toContain('the pointer to project_merge_freeze.md is past what the agent loads of MEMORY.md (200 lines, 25,000 characters)');
    writeTree(dir, { 'MEMORY.md': `${pointers.slice(0, 10).join('\n')}\n` });
    const fits = await runMemdir([...args, '--json'], { cwd: project, env });
    expect(JSON.parse(fits.stdout)).toMatchObject({ loaded: true });
    expect(fits.stderr).toBe('');
  });

  test.each([
    [['--type', 'idea', '--name', 'n', '--description', 'd', '--body', 'b'], /--type "idea" is not one of user, feedback, project, reference/],
    [['--type', 'user', '--name', 'n', '--description', ' ', '--body', 'b'], /--description must not be empty/],
    [['--type', 'user', '--name', 'n', '--description', 'd'], /no body/],
    [['--type', 'user', '--description', 'd', '--body', 'b'], /Missing required argument: name/],
  ])('bad usage %j exits 2 and writes nothing', async (extra, message) => {
    const { project, dir, env } = workspace();
    const r = await runMemdir(['save', '--dir', dir, ...extra], { cwd: project, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync(dir)).toBe(false);
  });

  test('forget by name or by file removes the file and its pointer', async () => {
    const { project, dir, env } = workspace();
    for (const name of ['Alpha', 'Beta']) {
      await runMemdir(['save', '--dir', dir, '--type', 'user', '--name', name, '--description', `about ${name}`, '--body', name], { cwd: project, env });
    }
    const byName = await runMemdir(['forget', '--dir', dir, 'Alpha'], { cwd: project, env });
    expect(byName).toMatchObject({ code: 0, stdout: 'forgot user_alpha.md (file and 1 pointer(s))\n' });
    const byFile = await runMemdir(['forget', '--dir', dir, 'user_beta.md', '--json'], { cwd: project, env });
    expect(JSON.parse(byFile.stdout)).toMatchObject({ file: 'user_beta.md', removedFile: true, removedPointers: 1 });
    expect(read(path.join(dir, 'MEMORY.md'))).toBe('');
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.md'))).toEqual(['MEMORY.md']);
    const missing = await runMemdir(['forget', '--dir', dir, 'Gamma'], { cwd: project, env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no memory named "Gamma"/);
  });

  test('20 concurrent saves: every file and every pointer is there', async () => {
    const { project, dir, env } = workspace();
    const runs = Array.from({ length: 20 }, (_, i) =>
      runMemdir(['save', '--dir', dir, '--type', 'project', '--name', `Memory ${i}`, '--description', `concurrent memory number ${i}`, '--body', `body ${i}`], {
        cwd: project,
        env,
        timeoutMs: 60_000,
      }),
    );
    const results = await Promise.all(runs);
    expect(results.map((r) => r.code)).toEqual(Array(20).fill(0));
    const index = read(path.join(dir, 'MEMORY.md'));
    for (let i = 0; i < 20; i++) {
      expect(fs.existsSync(path.join(dir, `project_memory_${i}.md`))).toBe(true);
      expect(index).toContain(`(project_memory_${i}.md)`);
    }
    expect(index.trim().split('\n')).toHaveLength(20);
    expect(fs.readdirSync(dir).filter((f) => f.includes('tmp'))).toEqual([]);
  }, 90_000);
});

describe('bad input: one line naming the file, exit 2, nothing changed', () => {
  const save = ['save', '--type', 'user', '--name', 'Role', '--description', 'User is a data engineer', '--body', 'x'];

  async function expectRefused(dir: string, project: string, env: NodeJS.ProcessEnv, fileInMessage: string) {
    const before = snapshotTree(dir);
    const r = await runMemdir([...save, '--dir', dir], { cwd: project, env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(fileInMessage);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const after = snapshotTree(dir);
    delete after['.memdir/lock'];
    expect(after).toEqual(before);
    return r;
  }

  test('binary MEMORY.md', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'MEMORY.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0d]), '.memdir/keep': '' });
    const r = await expectRefused(dir, project, env, path.join(dir, 'MEMORY.md'));
    expect(r.stderr).toMatch(/binary/);
  });

  test('invalid YAML in the memory being updated', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'user_role.md': '---\nname: Role\ndescription: [broken\n---\nbody\n', '.memdir/keep': '' });
    // The scan cannot read the name from a broken block, so target the file by name collision.
    const r = await runMemdir([...save, '--dir', dir], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(read(path.join(dir, 'user_role.md'))).toBe('---\nname: Role\ndescription: [broken\n---\nbody\n');
    expect(fs.existsSync(path.join(dir, 'user_role_2.md'))).toBe(true);
  });

  test('a 200 KB single-line MEMORY.md', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'MEMORY.md': `- ${'x'.repeat(200_000)}`, '.memdir/keep': '' });
    const r = await expectRefused(dir, project, env, path.join(dir, 'MEMORY.md'));
    expect(r.stderr).toMatch(/line 1 is a single line of 200,002 characters/);
  });

  test('MEMORY.md as a symlink out of the directory', async () => {
    const { root, project, dir, env } = workspace();
    const outside = path.join(root, 'elsewhere.md');
    fs.writeFileSync(outside, '- [Keep](keep.md)\n');
    writeTree(dir, { '.memdir/keep': '' });
    fs.symlinkSync(outside, path.join(dir, 'MEMORY.md'));
    const r = await expectRefused(dir, project, env, 'MEMORY.md');
    expect(r.stderr).toMatch(/outside the memory directory/);
    expect(read(outside)).toBe('- [Keep](keep.md)\n');
  });

  test('forgetting a topic file that is a symlink out of the directory is a refusal (exit 1), not bad input', async () => {
    const { root, project, dir, env } = workspace();
    const outside = path.join(root, 'outside.md');
    fs.writeFileSync(outside, 'precious\n');
    writeTree(dir, { 'MEMORY.md': '- [Role](user_role.md)\n', '.memdir/keep': '' });
    fs.symlinkSync(outside, path.join(dir, 'user_role.md'));
    const before = snapshotTree(dir);
    const r = await runMemdir(['forget', '--dir', dir, 'user_role.md'], { cwd: project, env });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/user_role\.md: resolves outside the memory directory/);
    expect(snapshotTree(dir)).toEqual(before);
    expect(read(outside)).toBe('precious\n');
  });

  test('a directory that cannot be created', async () => {
    const { root, project, env } = workspace();
    fs.writeFileSync(path.join(root, 'a-file'), '');
    const dir = path.join(root, 'a-file', 'memory');
    const r = await runMemdir([...save, '--dir', dir], { cwd: project, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write \(ENOTDIR/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  test.skipIf(process.getuid?.() === 0)('a read-only directory', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'MEMORY.md': '' });
    fs.chmodSync(dir, 0o555);
    const r = await runMemdir([...save, '--dir', dir], { cwd: project, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write/);
  });
});

describe('memdir context', () => {
  test('instructions then the index as loaded, cut with the warning when too long', async () => {
    const { project, dir, env } = workspace();
    const index = Array.from({ length: 249 }, (_, i) => `- [M${i}](m${i}.md) — hook ${i}`).join('\n');
    writeTree(dir, { 'MEMORY.md': `${index}\n` });
    const r = await runMemdir(['context', '--dir', dir], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# Memory\n/);
    expect(r.stdout).toMatch(/\*\*feedback\*\*/);
    expect(r.stdout).toContain('- [M199](m199.md) — hook 199');
    expect(r.stdout).not.toMatch(/^- \[M200\]/m);
    // Claude Code's own warning, which names the first line it did not load.
    expect(r.stdout).toContain('> WARNING: MEMORY.md is 249 lines (limit: 200). Only part of it was loaded: 49 of 249 lines were cut off, starting at line 201 ("- [M200](m200.md) — hook 200")');
    expect(r.stderr).toMatch(/memdir refactor/);
    const json = JSON.parse((await runMemdir(['context', '--dir', dir, '--json'], { cwd: project, env })).stdout);
    expect(json).toMatchObject({ lineCount: 249, loadedLines: 200, firstCutLine: 201, wasLineTruncated: true, wasByteTruncated: false });
  });

  test('--hook answers a SessionStart hook for the cwd it is given', async () => {
    const { home, project, env } = workspace();
    const memory = path.join(home, '.claude/projects', project.replace(/[^a-zA-Z0-9]/g, '-'), 'memory');
    writeTree(memory, { 'MEMORY.md': '- [Freeze](project_freeze.md) — merge freeze until 2026-03-05\n' });
    const input = JSON.stringify({ session_id: 's1', cwd: project, hook_event_name: 'SessionStart', source: 'startup' });
    const r = await runMemdir(['context', '--hook'], { cwd: home, env, input });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain('merge freeze until 2026-03-05');
  });

  test('--hook never blocks: bad input is one line on stderr and exit 0', async () => {
    const { project, env } = workspace();
    const r = await runMemdir(['context', '--hook'], { cwd: project, env, input: '{not json' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('help and usage', () => {
  test.each(['where', 'context', 'save', 'forget'])('%s --help shows an example', async (command) => {
    const { project, env } = workspace();
    const r = await runMemdir([command, '--help'], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Examples:\n\s+memdir /);
  });
  test('unknown commands and options are usage errors (exit 2)', async () => {
    const { project, env } = workspace();
    expect((await runMemdir(['wher'], { cwd: project, env })).code).toBe(2);
    expect((await runMemdir(['where', '--bogus'], { cwd: project, env })).code).toBe(2);
    expect((await runMemdir([], { cwd: project, env })).code).toBe(2);
  });
  test('--version', async () => {
    const { project, env } = workspace();
    const r = await runMemdir(['--version'], { cwd: project, env });
    expect(r.stdout.trim()).toBe(JSON.parse(read(path.resolve('package.json'))).version);
  });
});
