import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { configOwner, loadConfig, userConfigFile } from '../../src/config/find.js';
import { mergeConfigValues, withoutUserKeys } from '../../src/config/sections.js';
import { checkHookCommand, hookEnv, plainWords } from '../../src/hooks/executable.js';
import { tempDir, writeTree } from '../helpers/temp.js';

describe('what a project may set', () => {
  test('commands, URLs, remotes, backends, engines and models are dropped; rules and thresholds stay', () => {
    const value = {
      rules: { MEM004: 'off' },
      ignore: ['archive/**'],
      recall: { limit: 3, engine: 'claude', model: 'm' },
      extract: { every: 2, engine: 'claude' },
      dream: { minHours: 1, model: 'm' },
      sync: { redact: true, backend: 'http', url: 'http://x', remote: 'evil', branch: 'b', repo: 'a/b' },
      hooks: { command: 'touch x #' },
    };
    const { value: kept, dropped } = withoutUserKeys(value);
    expect(dropped).toEqual(['recall.engine', 'recall.model', 'extract.engine', 'dream.model', 'sync.backend', 'sync.url', 'sync.remote', 'sync.branch', 'sync.repo', 'hooks.command']);
    expect(kept).toEqual({ rules: { MEM004: 'off' }, ignore: ['archive/**'], recall: { limit: 3 }, extract: { every: 2 }, dream: { minHours: 1 }, sync: { redact: true }, hooks: {} });
  });

  test('merged, the upper file wins key by key, rule by rule', () => {
    expect(mergeConfigValues({ rules: { MEM004: 'off', MEM005: 'error' }, sync: { url: 'u', redact: false }, skipIndex: true }, { rules: { MEM005: 'info' }, sync: { redact: true } })).toEqual({
      rules: { MEM004: 'off', MEM005: 'info' },
      sync: { url: 'u', redact: true },
      skipIndex: true,
    });
  });
});

describe('whose a config file is', () => {
  function setup() {
    const home = tempDir('memdir-trust-home-');
    const repo = tempDir('memdir-trust-repo-');
    writeTree(home, { '.claude/projects/-x/memory/memdir.config.json': '{}', '.config/memdir/config.json': '{}' });
    writeTree(repo, { 'memdir.config.json': '{}' });
    return { home, repo, env: { HOME: home } };
  }

  test("the user's: named on the command line, the user-level file", () => {
    const { home, repo, env } = setup();
    expect(configOwner(path.join(repo, 'memdir.config.json'), true, env, home)).toBe('user');
    expect(configOwner(userConfigFile(env, home), false, env, home)).toBe('user');
    expect(userConfigFile({ XDG_CONFIG_HOME: '/xdg' }, home)).toBe('/xdg/memdir/config.json');
  });

  test("the project's: a file in a repository, in a memory directory (an agent writes there), behind a link", () => {
    const { home, repo, env } = setup();
    expect(configOwner(path.join(repo, 'memdir.config.json'), false, env, home)).toBe('project');
    expect(configOwner(path.join(home, '.claude/projects/-x/memory/memdir.config.json'), false, env, home)).toBe('project');
    const linked = path.join(home, '.claude/projects/-y/memory');
    fs.mkdirSync(path.dirname(linked), { recursive: true });
    fs.symlinkSync(repo, linked);
    expect(configOwner(path.join(linked, 'memdir.config.json'), false, env, home)).toBe('project');
  });

  test('one warning per project file, naming only the keys of the sections the command reads', () => {
    const { repo, env } = setup();
    fs.writeFileSync(path.join(repo, 'memdir.config.json'), JSON.stringify({ sync: { url: 'http://x', redact: true }, hooks: { command: 'x' } }));
    const load = (sections: Array<'sync' | 'hooks'>, trustProjectSettings?: boolean) => loadConfig({ dir: tempDir(), cwd: repo, env, sections, trustProjectSettings });
    const sync = load(['sync']);
    expect(sync.warnings).toEqual([expect.stringMatching(/^memdir: ignoring sync\.url in .*memdir\.config\.json: .*--trust-project-settings/)]);
    expect(sync.config.sync).toEqual({ redact: true });
    expect(load([]).warnings).toEqual([]);
    expect(load(['sync'], true)).toMatchObject({ warnings: [], config: { sync: { url: 'http://x', redact: true } } });
  });
});

describe('a hook command is checked without running it', () => {
  test.each([
    ['memdir', ['memdir']],
    ['"/opt/my tools/memdir" --quiet', ['/opt/my tools/memdir', '--quiet']],
    ["'it''s'", ['its']],
    ['~/bin/memdir', ['/home/u/bin/memdir']],
    ['touch /tmp/x; memdir', undefined],
    ['$(touch x) memdir', undefined],
    ['"$(touch x)"', undefined],
    ['touch x # memdir', undefined],
    ['memdir && rm -rf ~', undefined],
    ['`id`', undefined],
  ])('%s → %j', (text, words) => expect(plainWords(text, { HOME: '/home/u' })).toEqual(words));

  test('npx memdir, a relative path and node with a script are found on disk; shell syntax is not checked', () => {
    const project = tempDir('memdir-trust-hook-');
    writeTree(project, { 'node_modules/.bin/memdir': '#!/bin/sh\n', 'bin/memdir.cjs': '' });
    fs.chmodSync(path.join(project, 'node_modules/.bin/memdir'), 0o755);
    const env = { PATH: path.dirname(process.execPath), HOME: '/home/u' };
    const bin = path.join(project, 'node_modules/.bin/memdir');
    // `program`: the file that runs (node's script for `node …`), which doctor compares with itself before running a hook.
    expect(checkHookCommand('npx memdir', project, env)).toEqual({ runs: true, detail: bin, program: bin });
    expect(checkHookCommand('node_modules/.bin/memdir', project, env)).toEqual({ runs: true, detail: bin, program: bin });
    expect(checkHookCommand('node bin/memdir.cjs', project, env)).toEqual({
      runs: true,
      detail: `${process.execPath} ${path.join(project, 'bin/memdir.cjs')}`,
      program: path.join(project, 'bin/memdir.cjs'),
    });
    expect(checkHookCommand('node missing.cjs', project, env).runs).toBe(false);
    expect(checkHookCommand('memdir', project, env).runs).toBe(false);
    expect(checkHookCommand('touch /tmp/x; memdir', project, env)).toEqual({ runs: undefined, detail: expect.stringContaining('not checked') });
  });

  test('$CLAUDE_PROJECT_DIR and $HOME are expanded as sh would, quoted or not; other variables are not checked', () => {
    const env = { HOME: '/home/u', CLAUDE_PROJECT_DIR: '/work/my app' };
    expect(plainWords('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/memdir recall', env)).toEqual(['/work/my app/node_modules/.bin/memdir', 'recall']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${NAME}, not a template
    expect(plainWords('"${CLAUDE_PROJECT_DIR}/x" $HOME/bin', env)).toEqual(['/work/my app/x', '/home/u/bin']);
    // Unquoted, a value with a blank would be split: not one plain call.
    expect(plainWords('$CLAUDE_PROJECT_DIR/node_modules/.bin/memdir', env)).toBeUndefined();
    expect(plainWords('"$PATH"/memdir', env)).toBeUndefined();
    expect(plainWords('"$CLAUDE_PROJECT_DIR"/memdir', { HOME: '/home/u' })).toBeUndefined();
  });

  test("a hook's environment drops the folders npm put before PATH, only under npm; a missing #! interpreter would not run", () => {
    const project = tempDir('memdir-trust-env-');
    const npx = {
      PATH: `${project}/node_modules/.bin:/node_modules/.bin:/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin:/usr/bin:/opt/node_modules/.bin`,
      npm_command: 'exec',
    };
    expect(hookEnv(project, npx)).toMatchObject({ PATH: '/usr/bin:/opt/node_modules/.bin', CLAUDE_PROJECT_DIR: project });
    expect(hookEnv(project, { PATH: npx.PATH }).PATH).toBe(npx.PATH);
    writeTree(project, { 'node_modules/.bin/memdir': '#!/usr/bin/env no-such-node\n' });
    fs.chmodSync(path.join(project, 'node_modules/.bin/memdir'), 0o755);
    expect(checkHookCommand('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/memdir', project, hookEnv(project, { PATH: '/usr/bin:/bin' }))).toEqual({
      runs: false,
      detail: expect.stringContaining('needs no-such-node, which is not found'),
    });
  });
});
