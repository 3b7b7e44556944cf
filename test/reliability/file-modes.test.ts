import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { memdirOnPath } from '../helpers/claude.js';
import { plantedWorkspace } from '../helpers/dream-fixture.js';
import { createRepo } from '../helpers/git-repo.js';
import { STACK_TRACE } from '../helpers/reliability.js';
import { cleanEnv, memdirBin, runMemdir, runProcess } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

/**
 * Files keep their mode, owner and links: a 0600 settings file holding a key stays 0600, a settings
 * file or pre-commit hook kept in a dotfiles repository stays a link (its target is what changes),
 * and uninstall gives back the bytes, the mode and the link. Memory files keep their mode through
 * save, lint --fix and dream. A read-only file is refused, never replaced.
 */

const mode = (file: string) => fs.statSync(file).mode & 0o7777;

/** Bytes, mode and link of `file`: what a round trip must give back. */
function fileState(file: string) {
  const link = fs.lstatSync(file).isSymbolicLink() ? fs.readlinkSync(file) : null;
  return { link, mode: mode(file), bytes: fs.readFileSync(file, 'utf8') };
}

/** `memdir hooks …` for a user with memdir on PATH (a global install). */
async function hooks(args: string[], cwd: string, home: string) {
  const result = await runMemdir(['hooks', ...args], { cwd, env: cleanEnv(home, { PATH: `${memdirOnPath()}:${process.env.PATH}` }) });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

async function project() {
  const root = tempDir();
  const repo = await createRepo(path.join(root, 'app'));
  const home = path.join(root, 'home');
  const dotfiles = path.join(root, 'dotfiles');
  fs.mkdirSync(home);
  fs.mkdirSync(dotfiles);
  return { root, repo, home, dotfiles };
}

const KEYED = '{\n  "env": {\n    "ANTHROPIC_API_KEY": "sk-ant-not-a-real-key"\n  }\n}\n';

describe('hooks install → uninstall keeps mode, link and bytes', () => {
  test('a 0600 settings file holding a key stays 0600, and comes back byte for byte', async () => {
    const { repo, home } = await project();
    const file = path.join(repo, '.claude/settings.local.json');
    writeTree(repo, { '.claude/settings.local.json': KEYED });
    fs.chmodSync(file, 0o600);
    const before = fileState(file);
    await hooks(['install', '--claude'], repo, home);
    expect(mode(file)).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toContain('memdir recall --hook');
    await hooks(['uninstall', '--claude'], repo, home);
    expect(fileState(file)).toEqual(before);
  });

  test.each([
    ['local', '.claude/settings.local.json'],
    ['project', '.claude/settings.json'],
    ['user', 'HOME/.claude/settings.json'],
  ])('a symlinked settings file (--scope %s) stays a link; its target takes the hooks and gives them back', async (scope, where) => {
    const { repo, home, dotfiles } = await project();
    const target = path.join(dotfiles, 'claude-settings.json');
    fs.writeFileSync(target, KEYED, { mode: 0o640 });
    fs.chmodSync(target, 0o640);
    const link = where.startsWith('HOME/') ? path.join(home, where.slice(5)) : path.join(repo, where);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(target, link);
    const before = { link: fileState(link), target: fileState(target) };
    await hooks(['install', '--claude', '--scope', scope], repo, home);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toContain('memdir extract --hook');
    expect(mode(target)).toBe(0o640);
    expect(fs.readdirSync(path.dirname(link))).toEqual([path.basename(link)]);
    await hooks(['uninstall', '--claude', '--scope', scope], repo, home);
    expect({ link: fileState(link), target: fileState(target) }).toEqual(before);
  });

  test('a symlinked .git/hooks/pre-commit stays a link to the dotfiles hook, which keeps its mode and comes back', async () => {
    const { repo, home, dotfiles } = await project();
    const target = path.join(dotfiles, 'pre-commit');
    fs.writeFileSync(target, '#!/bin/sh\necho dotfiles hook\n');
    fs.chmodSync(target, 0o750);
    const hook = path.join(repo, '.git/hooks/pre-commit');
    fs.symlinkSync(target, hook);
    const before = { hook: fileState(hook), target: fileState(target) };
    await hooks(['install', '--git'], repo, home);
    expect(fs.readlinkSync(hook)).toBe(target);
    expect(fs.readFileSync(target, 'utf8')).toContain('# >>> memdir pre-commit >>>');
    expect(mode(target)).toBe(0o750);
    await hooks(['uninstall', '--git'], repo, home);
    expect({ hook: fileState(hook), target: fileState(target) }).toEqual(before);
  });

  test.each([
    ['{}', { '.claude/settings.local.json': '{}' }],
    ['{"hooks":{}}', { '.claude/settings.local.json': '{"hooks":{}}' }],
    ['an empty .claude/', {}],
  ])('%s: unchanged after install and uninstall', async (_name, files) => {
    const { repo, home } = await project();
    fs.mkdirSync(path.join(repo, '.claude'));
    writeTree(repo, files);
    const before = snapshotTree(path.join(repo, '.claude'));
    await hooks(['install', '--claude'], repo, home);
    expect(snapshotTree(path.join(repo, '.claude'))).not.toEqual(before);
    await hooks(['uninstall', '--claude'], repo, home);
    expect(snapshotTree(path.join(repo, '.claude'))).toEqual(before);
    expect(fs.statSync(path.join(repo, '.claude')).isDirectory()).toBe(true);
  });

  test('a read-only (0444) settings file is refused in one line naming it, before the git hook is touched', async () => {
    const { repo, home } = await project();
    const file = path.join(repo, '.claude/settings.local.json');
    writeTree(repo, { '.claude/settings.local.json': KEYED });
    fs.chmodSync(file, 0o444);
    const before = snapshotTree(repo);
    const result = await runMemdir(['hooks', 'install'], { cwd: repo, env: cleanEnv(home) });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`${file}: read-only \\(mode 0444\\)`))]);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(snapshotTree(repo)).toEqual(before);
    expect(mode(file)).toBe(0o444);
  });

  test('uninstall with a settings file made read-only since: refused before the pre-commit hook is taken out', async () => {
    const { repo, home } = await project();
    await hooks(['install'], repo, home);
    const file = path.join(repo, '.claude/settings.local.json');
    fs.chmodSync(file, 0o444);
    const before = snapshotTree(repo);
    const result = await runMemdir(['hooks', 'uninstall'], { cwd: repo, env: cleanEnv(home) });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(`${file}: read-only (mode 0444)`)]);
    expect(snapshotTree(repo)).toEqual(before);
  });
});

test('core.hooksPath=~/githooks: the hook goes where git runs it, and a commit runs it', async () => {
  const { repo, home } = await project();
  await simpleGit(repo, { unsafe: { allowUnsafeHooksPath: true } }).addConfig('core.hooksPath', '~/githooks');
  const env = cleanEnv(home);
  expect((await runMemdir(['hooks', 'install', '--git', '--command', `${process.execPath} ${memdirBin}`], { cwd: repo, env })).code).toBe(0);
  expect(fs.existsSync(path.join(home, 'githooks/pre-commit'))).toBe(true);
  expect(fs.existsSync(path.join(repo, '~'))).toBe(false);
  const status = await runMemdir(['hooks', 'status', '--json'], { cwd: repo, env });
  expect(JSON.parse(status.stdout).hooks[0].file).toBe(path.join(home, 'githooks/pre-commit'));
  writeTree(repo, { '.claude/memory/MEMORY.md': '# Memory\n\n- [Old deploy](project_old_deploy.md) — how deploys used to work\n' });
  await simpleGit(repo).add('.');
  const commit = await runProcess('git', ['commit', '-q', '-m', 'dead pointer'], { cwd: repo, env });
  expect(commit.code).not.toBe(0);
  expect(commit.stdout + commit.stderr).toContain('MEM006');
});

describe('memory files keep their mode', () => {
  test('through lint --fix and save (the index, kept through a symlink that stays a link), and untouched files too', async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    writeTree(dir, {
      'index/MEMORY.md': '- [Role](user_role.md) — data engineer\n',
      'user_role.md': '---\nname: Role\ndescription: The user is a data engineer on the billing team\ntype: user\n---\n\nData engineer.\n',
      'feedback_terse.md':
        '---\nname: Terse replies\ndescription: User does not want a summary at the end of each response\ntype: feedback\n---\n\nNo recap.\n\n**Why:** reads the diff.\n**How to apply:** always.\n',
    });
    fs.symlinkSync('index/MEMORY.md', path.join(dir, 'MEMORY.md'));
    fs.chmodSync(path.join(dir, 'index/MEMORY.md'), 0o600);
    fs.chmodSync(path.join(dir, 'feedback_terse.md'), 0o640);
    const env = cleanEnv(path.join(root, 'home'));
    const fix = await runMemdir(['lint', '--fix', '--dir', dir], { cwd: root, env });
    expect(fix.stderr).not.toMatch(STACK_TRACE);
    expect(fs.readFileSync(path.join(dir, 'index/MEMORY.md'), 'utf8')).toContain('feedback_terse.md');
    const save = await runMemdir(['save', '--dir', dir, '--type', 'project', '--name', 'Merge freeze', '--description', 'No merges to main until 2026-03-05', '--body', 'Freeze.'], { cwd: root, env });
    expect(save.code, save.stderr).toBe(0);
    expect(fs.readlinkSync(path.join(dir, 'MEMORY.md'))).toBe('index/MEMORY.md');
    expect(fs.readFileSync(path.join(dir, 'index/MEMORY.md'), 'utf8')).toContain('project_merge');
    expect(mode(path.join(dir, 'index/MEMORY.md'))).toBe(0o600);
    expect(mode(path.join(dir, 'feedback_terse.md'))).toBe(0o640);
  });

  test('through dream', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'home'));
    const { dir, repo } = await plantedWorkspace(root);
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.md'));
    for (const file of files) fs.chmodSync(path.join(dir, file), 0o600);
    const before = snapshotTree(dir);
    const run = await runMemdir(['dream', '--dir', dir, '--force'], { cwd: repo, env: cleanEnv(path.join(root, 'home')) });
    expect(run.code, run.stderr).toBe(0);
    const changed = files.filter((f) => fs.existsSync(path.join(dir, f)) && snapshotTree(dir)[f] !== before[f]);
    expect(changed.length).toBeGreaterThan(0);
    for (const file of files.filter((f) => fs.existsSync(path.join(dir, f)))) expect([file, mode(path.join(dir, file))]).toEqual([file, 0o600]);
  });

  test('a read-only memory file is refused in one line, and left as it is', async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    writeTree(dir, {
      'MEMORY.md': '- [Role](user_role.md) — data engineer\n',
      'user_role.md': '---\nname: Role\ndescription: The user is a data engineer on the billing team\ntype: user\n---\n\nData engineer.\n',
    });
    fs.chmodSync(path.join(dir, 'MEMORY.md'), 0o444);
    const before = snapshotTree(dir);
    const save = await runMemdir(['save', '--dir', dir, '--type', 'project', '--name', 'Merge freeze', '--description', 'No merges to main until 2026-03-05', '--body', 'Freeze.'], {
      cwd: root,
      env: cleanEnv(path.join(root, 'home')),
    });
    expect(save.code).toBe(2);
    expect(save.stderr.trim().split('\n')).toEqual([expect.stringContaining(`${path.join(dir, 'MEMORY.md')}: read-only (mode 0444)`)]);
    expect(Object.fromEntries(Object.entries(snapshotTree(dir)).filter(([k]) => !k.startsWith('.memdir')))).toEqual(before);
  });
});
