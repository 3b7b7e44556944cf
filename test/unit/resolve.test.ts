import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { sanitizeProjectPath } from '../../src/core/paths.js';
import { canonicalRoot, findGitRoot } from '../../src/store/git-root.js';
import { resolveMemoryDir } from '../../src/store/resolve.js';
import { addWorktree, createRepo } from '../helpers/git-repo.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const noManaged = (dir: string) => path.join(dir, 'no-managed-settings.json');

function setup() {
  const root = tempDir();
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  return { root, home, env: { HOME: home } as NodeJS.ProcessEnv, managedSettings: noManaged(root) };
}

const defaultDir = (home: string, project: string) => path.join(home, '.claude/projects', sanitizeProjectPath(project), 'memory');

describe('default location', () => {
  test('outside git: keyed by the working directory', () => {
    const { root, home, env, managedSettings } = setup();
    const project = path.join(root, 'plain');
    fs.mkdirSync(project);
    const r = resolveMemoryDir({ cwd: project, env, managedSettings });
    expect(r).toMatchObject({ rule: 'default', dir: defaultDir(home, project), projectRoot: project });
  });

  test('inside a repository: keyed by the repository root, from any subfolder', async () => {
    const { root, home, env, managedSettings } = setup();
    const repo = await createRepo(path.join(root, 'my.repo'));
    fs.mkdirSync(path.join(repo, 'src/deep'), { recursive: true });
    const r = resolveMemoryDir({ cwd: path.join(repo, 'src/deep'), env, managedSettings });
    expect(r.dir).toBe(defaultDir(home, repo));
  });

  test('linked worktrees share the main checkout directory', async () => {
    const { root, home, env, managedSettings } = setup();
    const repo = await createRepo(path.join(root, 'app'));
    const worktree = await addWorktree(repo, path.join(root, 'app-feature'));
    expect(canonicalRoot(findGitRoot(worktree)!)).toBe(repo);
    expect(resolveMemoryDir({ cwd: worktree, env, managedSettings }).dir).toBe(defaultDir(home, repo));
  });

  test('a worktree of a bare repository is keyed by the bare directory', async () => {
    const { root, home, env, managedSettings } = setup();
    const source = await createRepo(path.join(root, 'source'));
    const bare = path.join(root, 'bare.git');
    await simpleGit(root).raw(['clone', '--bare', source, bare]);
    const worktree = path.join(root, 'bare-wt');
    await simpleGit(bare).raw(['worktree', 'add', worktree]);
    expect(resolveMemoryDir({ cwd: worktree, env, managedSettings }).dir).toBe(defaultDir(home, fs.realpathSync(bare)));
  });

  test('a submodule keeps its own root', async () => {
    const { root, home, env, managedSettings } = setup();
    const lib = await createRepo(path.join(root, 'lib'));
    const repo = await createRepo(path.join(root, 'super'));
    await simpleGit(repo, { unsafe: { allowUnsafeProtocolOverride: true } }).raw(['-c', 'protocol.file.allow=always', 'submodule', 'add', lib, 'vendor/lib']);
    const sub = path.join(repo, 'vendor/lib');
    expect(resolveMemoryDir({ cwd: sub, env, managedSettings }).dir).toBe(defaultDir(home, sub));
  });

  test('a forged .git file cannot borrow another repository', async () => {
    const { root, home, env, managedSettings } = setup();
    const victim = await createRepo(path.join(root, 'victim'));
    await addWorktree(victim, path.join(root, 'victim-wt'));
    const attacker = path.join(root, 'attacker');
    const wtName = fs.readdirSync(path.join(victim, '.git/worktrees'))[0]!;
    writeTree(attacker, { '.git': `gitdir: ${path.join(victim, '.git/worktrees', wtName)}\n` });
    expect(resolveMemoryDir({ cwd: attacker, env, managedSettings }).dir).toBe(defaultDir(home, attacker));
  });

  test('CLAUDE_CONFIG_DIR moves the config home', () => {
    const { root, env, managedSettings } = setup();
    const r = resolveMemoryDir({ cwd: root, env: { ...env, CLAUDE_CONFIG_DIR: path.join(root, 'cfg') }, managedSettings });
    expect(r.dir).toBe(path.join(root, 'cfg/projects', sanitizeProjectPath(root), 'memory'));
  });
});

describe('overrides, first wins', () => {
  test('--dir beats everything, and relative --dir is from the working directory', () => {
    const { root, env, managedSettings } = setup();
    const r = resolveMemoryDir({ dir: 'mem', cwd: root, env: { ...env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '/srv/other' }, managedSettings });
    expect(r).toMatchObject({ rule: 'flag', dir: path.join(root, 'mem') });
  });

  test('the environment override beats settings; it takes no ~ expansion', () => {
    const { root, env, managedSettings } = setup();
    writeTree(root, { '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: '/srv/from-settings' }) });
    const r = resolveMemoryDir({ cwd: root, env: { ...env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '/srv/from-env/' }, managedSettings });
    expect(r).toMatchObject({ rule: 'env', dir: '/srv/from-env' });
    expect(() => resolveMemoryDir({ cwd: root, env: { ...env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '~/x' }, managedSettings })).toThrow(ConfigError);
  });

  test('managed policy, then local, then user settings', () => {
    const { root, home, env } = setup();
    const managedSettings = path.join(root, 'managed.json');
    writeTree(root, {
      'managed.json': JSON.stringify({ autoMemoryDirectory: '/srv/policy' }),
      '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: '~/local-mem' }),
    });
    writeTree(home, { '.claude/settings.json': JSON.stringify({ autoMemoryDirectory: '~/user-mem' }) });
    expect(resolveMemoryDir({ cwd: root, env, managedSettings })).toMatchObject({ rule: 'setting', source: 'policy', dir: '/srv/policy' });
    fs.rmSync(managedSettings);
    expect(resolveMemoryDir({ cwd: root, env, managedSettings })).toMatchObject({
      source: 'local',
      dir: path.join(home, 'local-mem'),
      file: path.join(root, '.claude/settings.local.json'),
    });
    fs.rmSync(path.join(root, '.claude/settings.local.json'));
    expect(resolveMemoryDir({ cwd: root, env, managedSettings })).toMatchObject({ source: 'user', dir: path.join(home, 'user-mem') });
  });

  test('committed project settings are ignored with a warning unless trusted', () => {
    const { root, home, env, managedSettings } = setup();
    writeTree(root, { '.claude/settings.json': JSON.stringify({ autoMemoryDirectory: '~/.ssh' }) });
    const untrusted = resolveMemoryDir({ cwd: root, env, managedSettings });
    expect(untrusted.rule).toBe('default');
    expect(untrusted.dir).not.toContain('.ssh');
    expect(untrusted.warnings).toEqual([expect.stringContaining(path.join(root, '.claude/settings.json'))]);
    expect(untrusted.warnings[0]).toMatch(/--trust-project-settings/);

    expect(resolveMemoryDir({ cwd: root, env, managedSettings, trustProjectSettings: true })).toMatchObject({
      rule: 'setting',
      source: 'project',
      dir: path.join(home, '.ssh'),
    });
    expect(resolveMemoryDir({ cwd: root, env: { ...env, MEMDIR_TRUST_PROJECT_SETTINGS: '1' }, managedSettings }).source).toBe('project');
  });

  test.each([
    ['not JSON', '{ nope', /not valid JSON/],
    ['not an object', '[1]', /JSON object/],
    ['not a string', JSON.stringify({ autoMemoryDirectory: 42 }), /must be a string/],
    ['relative', JSON.stringify({ autoMemoryDirectory: 'relative/mem' }), /not an absolute path/],
    ['root', JSON.stringify({ autoMemoryDirectory: '/' }), /root/],
  ])('hostile settings (%s) are a configuration error naming the file', (_label, content, message) => {
    const { root, env, managedSettings } = setup();
    writeTree(root, { '.claude/settings.local.json': content });
    expect(() => resolveMemoryDir({ cwd: root, env, managedSettings })).toThrow(message);
    expect(() => resolveMemoryDir({ cwd: root, env, managedSettings })).toThrow(path.join(root, '.claude/settings.local.json'));
  });
});
