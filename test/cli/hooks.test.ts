import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { addWorktree, createRepo } from '../helpers/git-repo.js';
import { memdirOnPath } from '../helpers/claude.js';
import { cleanEnv, memdirBin, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

const ODD_SETTINGS =
  '{\n   "model": "opus",\n\t"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]}],\n     "UserPromptSubmit": [\n        { "hooks": [ { "type": "command", "command": "other-tool --prompt" } ] }\n     ]\n   },\n   "permissions": {}\n}';

/** `memdir hooks …` for a user with memdir on PATH (a global install). */
async function hooks(args: string[], cwd: string, home: string) {
  const result = await runMemdir(['hooks', ...args], { cwd, env: cleanEnv(home, { PATH: `${memdirOnPath()}:${process.env.PATH}` }) });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/** install, install again (no change), uninstall: the tree is back to its bytes. */
async function roundTrip(cwd: string, watched: string, home: string, args: string[] = []) {
  const before = snapshotTree(watched);
  await hooks(['install', ...args], cwd, home);
  const installed = snapshotTree(watched);
  expect(installed).not.toEqual(before);
  await hooks(['install', ...args], cwd, home);
  expect(snapshotTree(watched)).toEqual(installed);
  await hooks(['uninstall', ...args.filter((a) => a !== '--with-context')], cwd, home);
  expect(snapshotTree(watched)).toEqual(before);
  return installed;
}

describe('install then uninstall leaves every byte as it was', () => {
  test('no settings file and no hook: both are created, then removed; the .claude folder stays, empty (it may be the user’s)', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    await roundTrip(repo, repo, tempDir(), ['--with-context']);
    expect(fs.readdirSync(path.join(repo, '.claude'))).toEqual([]);
  });

  test('settings with other hooks, odd indentation and no final newline keep them all', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(repo, { '.claude/settings.local.json': ODD_SETTINGS });
    await roundTrip(repo, path.join(repo, '.claude'), tempDir(), ['--claude']);
    await hooks(['install', '--claude'], repo, tempDir());
    const text = fs.readFileSync(path.join(repo, '.claude/settings.local.json'), 'utf8');
    const settings = JSON.parse(text);
    expect(Object.keys(settings)).toEqual(['model', 'hooks', 'permissions']);
    expect(settings.hooks.UserPromptSubmit.map((g: any) => g.hooks[0].command)).toEqual(['other-tool --prompt', 'memdir recall --hook']);
    expect(settings.hooks.PreToolUse.map((g: any) => [g.matcher, g.hooks[0].command])).toEqual([
      ['Bash', 'echo hi'],
      ['Write|Edit|MultiEdit', 'memdir guard --hook'],
    ]);
    expect(text).toContain('\n        {\n');
    // SessionStart adds team memory only: Claude Code loads the private index itself.
    expect(settings.hooks.SessionStart.map((g: any) => g.hooks[0].command)).toEqual(['memdir context --hook --team-only']);
  });

  test('--with-context installs the whole context; uninstall takes either form out', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const installed = await roundTrip(repo, path.join(repo, '.claude'), tempDir(), ['--claude', '--with-context']);
    expect(JSON.parse(Buffer.from(installed['settings.local.json']!, 'base64').toString('utf8')).hooks.SessionStart[0].hooks[0].command).toBe('memdir context --hook');
  });

  test('the guard goes under PreToolUse with its matcher, the session notes in a second Stop group, text exact; --no-guard and --no-session leave them out', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const home = tempDir();
    await hooks(['install', '--claude', '--command', 'memdir'], repo, home);
    const file = path.join(repo, '.claude/settings.local.json');
    const group = (event: string, sub: string, matcher = '') =>
      `    "${event}": [\n      {\n${matcher ? `        "matcher": "${matcher}",\n` : ''}        "hooks": [\n          {\n            "type": "command",\n            "command": "memdir ${sub}"\n          }\n        ]\n      }\n    ]`;
    expect(fs.readFileSync(file, 'utf8')).toBe(
      `{\n  "$schema": "https://json.schemastore.org/claude-code-settings.json",\n  "hooks": {\n${[
        group('SessionStart', 'context --hook --team-only'),
        group('UserPromptSubmit', 'recall --hook'),
        group('PreToolUse', 'guard --hook', 'Write|Edit|MultiEdit'),
        group('Stop', 'extract --hook').replace(
          /\n {4}\]$/,
          ',\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": "memdir session --hook"\n          }\n        ]\n      }\n    ]',
        ),
        group('SessionEnd', 'dream --hook'),
      ].join(',\n')}\n  }\n}\n`,
    );
    const status = JSON.parse((await hooks(['status', '--json', '--claude'], repo, home)).stdout).hooks as Array<Record<string, unknown>>;
    expect(status.map((h) => h.hook)).toContain('Claude Code PreToolUse (local)');
    await hooks(['uninstall', '--claude'], repo, home);
    expect(fs.existsSync(file)).toBe(false);
    await hooks(['install', '--claude', '--command', 'memdir', '--no-guard'], repo, home);
    const events = JSON.parse(fs.readFileSync(file, 'utf8')).hooks;
    expect(Object.keys(events)).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']);
    expect(events.Stop).toHaveLength(2);
    await hooks(['uninstall', '--claude'], repo, home);
    await hooks(['install', '--claude', '--command', 'memdir', '--no-session'], repo, home);
    const withoutNotes = JSON.parse(fs.readFileSync(file, 'utf8')).hooks;
    expect(withoutNotes.Stop.map((g: { hooks: Array<{ command: string }> }) => g.hooks[0]!.command)).toEqual(['memdir extract --hook']);
    // Installed later, the session entry joins the Stop list; uninstall takes both out and leaves nothing.
    await hooks(['install', '--claude', '--command', 'memdir'], repo, home);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).hooks.Stop.map((g: { hooks: Array<{ command: string }> }) => g.hooks[0]!.command)).toEqual(['memdir extract --hook', 'memdir session --hook']);
    await hooks(['uninstall', '--claude'], repo, home);
    expect(fs.existsSync(file)).toBe(false);
  });

  test('a settings file with a byte-order mark, tabs and CRLF line ends', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(repo, {
      '.claude/settings.json': '\uFEFF{\r\n\t"hooks": {\r\n\t\t"Stop": [\r\n\t\t\t{"hooks": [{"type": "command", "command": "say done"}]}\r\n\t\t]\r\n\t},\r\n\t"env": {"A": "1"}\r\n}\r\n',
    });
    const installed = await roundTrip(repo, repo, tempDir(), ['--claude', '--scope', 'project']);
    const text = Buffer.from(installed['.claude/settings.json']!, 'base64').toString();
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(text).toContain('\r\n\t\t\t{\r\n\t\t\t\t"hooks": [');
  });

  test('a husky v9 project gets a marked block in .husky/pre-commit, first', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(repo, { '.husky/pre-commit': 'npm test\n', '.husky/_/pre-commit': '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n' });
    await simpleGit(repo, { unsafe: { allowUnsafeHooksPath: true } }).addConfig('core.hooksPath', '.husky/_');
    const installed = await roundTrip(repo, repo, tempDir(), ['--git']);
    const script = Buffer.from(installed['.husky/pre-commit']!, 'base64').toString();
    expect(script.startsWith('# >>> memdir pre-commit >>>')).toBe(true);
    expect(script.endsWith('# <<< memdir pre-commit <<<\nnpm test\n')).toBe(true);
  });

  test('an existing plain pre-commit is kept and chained: the block goes after its shebang', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const hook = path.join(repo, '.git/hooks/pre-commit');
    fs.writeFileSync(hook, '#!/bin/bash\nset -e\nexit 0\n', { mode: 0o750 });
    await roundTrip(repo, path.join(repo, '.git/hooks'), tempDir(), ['--git']);
    expect(fs.statSync(hook).mode & 0o777).toBe(0o750);
  });

  test('a pre-commit that is not shell is moved aside and run after the check', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const hook = path.join(repo, '.git/hooks/pre-commit');
    fs.writeFileSync(hook, '#!/usr/bin/env python3\nprint("python hook ran")\n', { mode: 0o755 });
    const installed = await roundTrip(repo, path.join(repo, '.git/hooks'), tempDir(), ['--git']);
    expect(Object.keys(installed)).toContain('pre-commit.memdir-chained');
  });

  test('from a linked worktree, the hook goes into the common git dir', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const worktree = await addWorktree(repo, path.join(tempDir(), 'feature'));
    const installed = await roundTrip(worktree, path.join(repo, '.git/hooks'), tempDir(), ['--git']);
    expect(Object.keys(installed)).toContain('pre-commit');
  });

  test('--scope user writes $HOME/.claude/settings.json and takes it out again', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const home = tempDir();
    writeTree(home, { '.claude/settings.json': '{\n  "theme": "dark"\n}\n' });
    const installed = await roundTrip(repo, home, home, ['--claude', '--scope', 'user']);
    expect(JSON.parse(Buffer.from(installed['.claude/settings.json']!, 'base64').toString()).theme).toBe('dark');
    expect(fs.existsSync(path.join(repo, '.claude'))).toBe(false);
  });
});

test('a settings file that is not JSON is named, exit 2, and left untouched', async () => {
  const repo = await createRepo(path.join(tempDir(), 'app'));
  writeTree(repo, { '.claude/settings.local.json': '{ "hooks": { oops } }\n' });
  const before = snapshotTree(repo);
  const result = await runMemdir(['hooks', 'install', '--claude'], { cwd: repo, env: cleanEnv(tempDir()) });
  expect(result.code).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toContain('settings.local.json: not valid JSON');
  expect(snapshotTree(repo)).toEqual(before);
  // Installing both: the git hook is not installed either (before, it was, and the run still failed).
  const both = await runMemdir(['hooks', 'install'], { cwd: repo, env: cleanEnv(tempDir()) });
  expect(both.code).toBe(2);
  expect(fs.existsSync(path.join(repo, '.git/hooks/pre-commit'))).toBe(false);
  expect(snapshotTree(repo)).toEqual(before);
});

test('--command sets how the hooks run memdir; status says whose each hook is and whether it runs', async () => {
  const repo = await createRepo(path.join(tempDir(), 'app'));
  const home = tempDir();
  writeTree(repo, { '.claude/settings.json': '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}}\n' });
  const command = `${process.execPath} ${path.resolve('bin/memdir.cjs')}`;
  await hooks(['install', '--command', command, '--scope', 'project'], repo, home);
  const status = JSON.parse((await hooks(['status', '--json'], repo, home)).stdout).hooks as Array<Record<string, unknown>>;
  expect(status.filter((h) => h.owner === 'memdir').map((h) => [h.hook, h.command, h.runs])).toEqual([
    ['git pre-commit (git)', `${command} lint --staged`, true],
    ['Claude Code Stop (project)', `${command} extract --hook`, true],
    ['Claude Code Stop (project)', `${command} session --hook`, true],
    ['Claude Code SessionStart (project)', `${command} context --hook --team-only`, true],
    ['Claude Code UserPromptSubmit (project)', `${command} recall --hook`, true],
    ['Claude Code PreToolUse (project)', `${command} guard --hook`, true],
    ['Claude Code SessionEnd (project)', `${command} dream --hook`, true],
  ]);
  expect(status.find((h) => h.command === 'notify-send done')?.owner).toBe('other');
  await hooks(['uninstall', '--scope', 'project'], repo, home);
  expect(fs.readFileSync(path.join(repo, '.claude/settings.json'), 'utf8')).toBe('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}}\n');
  expect((await hooks(['status'], repo, home)).stdout).toContain('another tool');
});

test("hooks.command in the user's config is the default command (a project's is ignored, with a warning); outside git only Claude Code is wired, and --git is refused", async () => {
  const repo = await createRepo(path.join(tempDir(), 'app'));
  const home = tempDir();
  writeTree(repo, { 'memdir.config.json': '{ "hooks": { "command": "./evil.sh" } }\n' });
  const ignored = await hooks(['install', '--claude'], repo, home);
  expect(ignored.stderr).toContain(`ignoring hooks.command in ${path.join(repo, 'memdir.config.json')}`);
  expect(fs.readFileSync(path.join(repo, '.claude/settings.local.json'), 'utf8')).toContain('"command": "memdir recall --hook"');
  await hooks(['uninstall', '--claude'], repo, home);
  writeTree(home, { '.config/memdir/config.json': '{ "hooks": { "command": "npx memdir" } }\n' });
  fs.rmSync(path.join(repo, 'memdir.config.json'));
  await hooks(['install', '--claude'], repo, home);
  expect(fs.readFileSync(path.join(repo, '.claude/settings.local.json'), 'utf8')).toContain('"command": "npx memdir recall --hook"');

  const outside = tempDir();
  await hooks(['install'], outside, home);
  expect(fs.readdirSync(path.join(outside, '.claude'))).toEqual(['settings.local.json']);
  const refused = await runMemdir(['hooks', 'install', '--git'], { cwd: outside, env: cleanEnv(home) });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('--git: not inside a git repository');
});

describe("the command install writes runs where Claude Code runs it (sh -c on the user's PATH, no npx folders)", () => {
  /** A project with memdir as a devDependency: node_modules/.bin/memdir, as npm links it. */
  async function devDependencyProject() {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    fs.mkdirSync(path.join(repo, 'node_modules/.bin'), { recursive: true });
    fs.symlinkSync(memdirBin, path.join(repo, 'node_modules/.bin/memdir'));
    return repo;
  }
  const settingsCommands = (file: string) =>
    Object.values(JSON.parse(fs.readFileSync(file, 'utf8')).hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>).flatMap((groups) => groups.map((group) => group.hooks[0]!.command));
  /** The environment `npx memdir` gives memdir: npm's folders before the user's PATH. */
  const underNpx = (repo: string, home: string) =>
    cleanEnv(home, {
      PATH: `${repo}/node_modules/.bin:/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin:${path.dirname(process.execPath)}:/usr/bin:/bin`,
      npm_command: 'exec',
      npm_lifecycle_event: 'npx',
    });

  test("a node_modules/.bin/memdir that is not this memdir (a clone's own script) is never what the hooks run", async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    fs.mkdirSync(path.join(repo, 'node_modules/.bin'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'node_modules/.bin/memdir'), '#!/bin/sh\ntouch "$HOME/pwned"\n', { mode: 0o755 });
    const home = tempDir();
    const r = await runMemdir(['hooks', 'install', '--claude'], { cwd: repo, env: underNpx(repo, home) });
    expect(r.code, r.stderr).toBe(0);
    const commands = settingsCommands(path.join(repo, '.claude/settings.local.json'));
    expect(commands).toEqual(['context', 'recall', 'guard', 'extract', 'session', 'dream'].map((sub) => `${process.execPath} ${memdirBin} ${sub} --hook${sub === 'context' ? ' --team-only' : ''}`));
  });

  test('a devDependency: "$CLAUDE_PROJECT_DIR"/node_modules/.bin/memdir; user settings: memdir when on PATH, else node and the bin, resolved', async () => {
    const repo = await devDependencyProject();
    const home = tempDir();
    const local = await runMemdir(['hooks', 'install', '--claude'], { cwd: repo, env: underNpx(repo, home) });
    expect(local.code, local.stderr).toBe(0);
    expect(settingsCommands(path.join(repo, '.claude/settings.local.json'))).toEqual(
      ['context', 'recall', 'guard', 'extract', 'session', 'dream'].map((sub) => `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/memdir ${sub} --hook${sub === 'context' ? ' --team-only' : ''}`),
    );
    const status = await runMemdir(['hooks', 'status', '--json'], { cwd: repo, env: underNpx(repo, home) });
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout).hooks as Array<{ runs: boolean }>).map((h) => h.runs)).toEqual([true, true, true, true, true, true]);

    const user = await runMemdir(['hooks', 'install', '--claude', '--scope', 'user'], { cwd: repo, env: underNpx(repo, home) });
    expect(user.code, user.stderr).toBe(0);
    expect(settingsCommands(path.join(home, '.claude/settings.json'))).toContain(`${process.execPath} ${memdirBin} extract --hook`);
    await hooks(['uninstall', '--claude', '--scope', 'user'], repo, home);
    const onPath = await runMemdir(['hooks', 'install', '--claude', '--scope', 'user'], { cwd: repo, env: cleanEnv(home, { PATH: `${memdirOnPath()}:${process.env.PATH}` }) });
    expect(onPath.code, onPath.stderr).toBe(0);
    expect(settingsCommands(path.join(home, '.claude/settings.json'))).toContain('memdir extract --hook');
  });

  test('status exits 1 for a hook that would not run: `memdir` found only in the folders npx adds; uninstall still takes it out', async () => {
    const repo = await devDependencyProject();
    const home = tempDir();
    const installed = await runMemdir(['hooks', 'install', '--claude', '--command', 'memdir'], { cwd: repo, env: underNpx(repo, home) });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stderr).toContain('memdir hooks: "memdir" would not run: memdir not found');
    const status = await runMemdir(['hooks', 'status'], { cwd: repo, env: underNpx(repo, home) });
    expect(status.code).toBe(1);
    expect(status.stdout).toContain('memdir, would not run: memdir not found');
    expect(status.stderr).toContain("6 of memdir's hooks would not run");
    // The same PATH outside npm is the user's own: memdir is on it.
    const plain = await runMemdir(['hooks', 'status'], { cwd: repo, env: cleanEnv(home, { PATH: underNpx(repo, home).PATH }) });
    expect(plain.code, plain.stdout).toBe(0);
    // A bin whose `#!/usr/bin/env node` finds no node: the shell would exit 127 too.
    const noNode = await runMemdir(['hooks', 'status', '--json'], { cwd: repo, env: cleanEnv(home, { PATH: `${repo}/node_modules/.bin:/nonexistent` }) });
    expect(noNode.code).toBe(1);
    expect(JSON.parse(noNode.stdout).hooks[0].detail).toContain('needs node, which is not found');
    await hooks(['uninstall'], repo, home);
    expect(fs.existsSync(path.join(repo, '.claude/settings.local.json'))).toBe(false);
  });
});
