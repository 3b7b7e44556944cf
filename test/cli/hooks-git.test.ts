import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { expect, test } from 'vitest';
import { memdirOnPath } from '../helpers/claude.js';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, memdirBin, repoRoot, runMemdir, runProcess } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/** Node and git, and memdir only when asked: the PATH a hook sees. */
const BARE_PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`;
const withMemdir = () => `${memdirOnPath()}:${BARE_PATH}`;

const DEAD_POINTER = { '.claude/memory/MEMORY.md': '# Memory\n\n- [Old deploy](project_old_deploy.md) — how deploys used to work\n' };
const HEALTHY = {
  '.claude/memory/MEMORY.md': '- [Terse replies](feedback_terse.md) — no recap at the end of responses\n',
  '.claude/memory/feedback_terse.md':
    '---\nname: Terse replies\ndescription: User does not want a summary at the end of each response\ntype: feedback\n---\n\nNo recap at the end.\n\n**Why:** the user reads the diff.\n**How to apply:** every response.\n',
};

async function commit(repo: string, files: Record<string, string>, env: NodeJS.ProcessEnv) {
  writeTree(repo, files);
  await simpleGit(repo).add(Object.keys(files));
  const result = await runProcess('git', ['commit', '-q', '-m', 'change'], { cwd: repo, env });
  // git gives a hook's stdout to stderr; a refused commit leaves nothing staged for the next one.
  if (result.code !== 0) await simpleGit(repo).raw(['reset', '-q']);
  return { code: result.code, stderr: result.stderr, output: result.stdout + result.stderr };
}

async function repoWithHook(args: string[] = []) {
  const repo = await createRepo(path.join(tempDir(), 'app'));
  const home = tempDir();
  const installed = await runMemdir(['hooks', 'install', '--git', ...args], { cwd: repo, env: cleanEnv(home) });
  expect(installed.code, installed.stderr).toBe(0);
  return { repo, env: (extra: NodeJS.ProcessEnv = {}) => cleanEnv(home, { PATH: withMemdir(), ...extra }) };
}

test('a commit staging a memory file with a dead pointer is refused with the lint message; MEMDIR_HOOKS=0 lets it through', async () => {
  const { repo, env } = await repoWithHook();
  const refused = await commit(repo, DEAD_POINTER, env());
  expect(refused.code).not.toBe(0);
  expect(refused.output).toContain('points to project_old_deploy.md, which does not exist');
  const skipped = await commit(repo, DEAD_POINTER, env({ MEMDIR_HOOKS: '0' }));
  expect(skipped.code, skipped.stderr).toBe(0);
  const healthy = await commit(repo, HEALTHY, env());
  expect(healthy.code, healthy.stderr).toBe(0);
});

test('a commit touching no memory file never looks for memdir', async () => {
  const { repo, env } = await repoWithHook();
  writeTree(repo, { 'docs/MEMORY.md': '- [A](a.md) — a\n' });
  const result = await commit(repo, { 'notes.md': '# notes\n', 'src/app.js': 'x\n' }, env({ PATH: BARE_PATH }));
  expect(result).toMatchObject({ code: 0, stderr: '' });
});

test('a failing memdir never blocks the commit: one line on stderr', async () => {
  const { repo, env } = await repoWithHook();
  const missing = await commit(repo, DEAD_POINTER, env({ PATH: BARE_PATH }));
  expect(missing.code).toBe(0);
  expect(missing.stderr.trim().split('\n')).toEqual([expect.stringContaining('memdir is not in node_modules/.bin or on PATH; install it')]);

  const corrupt = await commit(repo, { 'memdir.config.json': '{ "rules": ', '.claude/memory/user_role.md': '---\nname: Role\n---\nx\n' }, env());
  expect(corrupt.code).toBe(0);
  expect(corrupt.stderr.trim().split('\n')).toEqual([expect.stringContaining('memdir.config.json: not valid JSON')]);
});

test('memdir is found in node_modules/.bin before PATH; --command is used as given', async () => {
  const { repo, env } = await repoWithHook();
  fs.mkdirSync(path.join(repo, 'node_modules/.bin'), { recursive: true });
  fs.symlinkSync(memdirBin, path.join(repo, 'node_modules/.bin/memdir'));
  expect((await commit(repo, DEAD_POINTER, env({ PATH: BARE_PATH }))).code).not.toBe(0);

  const pinned = await repoWithHook(['--command', `${process.execPath} ${memdirBin}`]);
  const refused = await commit(pinned.repo, DEAD_POINTER, pinned.env({ PATH: BARE_PATH }));
  expect(refused.output).toContain('MEM006');
});

test('with real husky v9 the block runs before the project’s own .husky/pre-commit', async () => {
  const repo = await createRepo(path.join(tempDir(), 'app'));
  const home = tempDir();
  const husky = await runProcess(process.execPath, [path.join(repoRoot, 'scripts/install-git-hooks.js')], { cwd: repo, env: cleanEnv(home) });
  expect(husky.code, husky.stdout).toBe(0);
  expect((await simpleGit(repo).raw(['config', 'core.hooksPath'])).trim()).toBe('.husky/_');
  writeTree(repo, { '.husky/pre-commit': 'echo project hook ran\n' });
  expect((await runMemdir(['hooks', 'install'], { cwd: repo, env: cleanEnv(home) })).code).toBe(0);
  const env = cleanEnv(home, { PATH: withMemdir() });
  const refused = await commit(repo, DEAD_POINTER, env);
  expect(refused.code).not.toBe(0);
  expect(refused.output).not.toContain('project hook ran');
  const passed = await commit(repo, { 'notes.txt': 'x\n' }, env);
  expect(passed.code, passed.stderr).toBe(0);
  expect(passed.output).toContain('project hook ran');
});

test('this repository’s own pre-commit lints staged examples and runs the type check', async () => {
  const repo = await createRepo(path.join(tempDir(), 'memdir'));
  const home = tempDir();
  writeTree(repo, {
    'package.json': JSON.stringify({ name: 'memdir-copy', scripts: { typecheck: 'echo type check ran' } }),
    'bin/memdir.cjs': `require(${JSON.stringify(memdirBin)});\n`,
    '.husky/pre-commit': fs.readFileSync(path.join(repoRoot, '.husky/pre-commit'), 'utf8'),
  });
  await runProcess(process.execPath, [path.join(repoRoot, 'scripts/install-git-hooks.js')], { cwd: repo, env: cleanEnv(home) });
  const env = cleanEnv(home, { PATH: BARE_PATH });
  const example = Object.fromEntries(
    fs.readdirSync(path.join(repoRoot, 'examples/rotting-memory')).map((f) => [`examples/rotting-memory/${f}`, fs.readFileSync(path.join(repoRoot, 'examples/rotting-memory', f), 'utf8')]),
  );
  const refused = await commit(repo, example, env);
  expect(refused.code).not.toBe(0);
  expect(refused.output).toContain('MEM006');
  const passed = await commit(repo, { 'examples/healthy/MEMORY.md': HEALTHY['.claude/memory/MEMORY.md'], 'examples/healthy/feedback_terse.md': HEALTHY['.claude/memory/feedback_terse.md'] }, env);
  expect(passed.code, passed.stderr).toBe(0);
  expect(passed.output).toContain('type check ran');
});

test('the setup script never fails: outside git, and in CI', async () => {
  const outside = tempDir();
  const script = path.join(repoRoot, 'scripts/install-git-hooks.js');
  const plain = await runProcess(process.execPath, [script], { cwd: outside, env: cleanEnv(outside) });
  expect(plain).toMatchObject({ code: 0, stdout: "husky: .git can't be found\n" });
  const repo = await createRepo(path.join(tempDir(), 'app'));
  const ci = await runProcess(process.execPath, [script], { cwd: repo, env: cleanEnv(outside, { CI: 'true' }) });
  expect(ci.code).toBe(0);
  expect(fs.existsSync(path.join(repo, '.husky'))).toBe(false);
});
