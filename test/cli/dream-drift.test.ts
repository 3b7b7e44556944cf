import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: about ${name}\ntype: project\n---\n\n${body}\n`;

/** Lines a dream must drop: each cites something the repository had and removed. */
const DRIFTED = {
  symbol: 'Settings are read by `parseConfig()` at start-up.',
  klass: 'The `LegacyLoader` caches every file it reads.',
  flag: 'Pass `--legacy-mode` for configs from before 2025.',
  script: 'Ship it with `npm run deploy` from main.',
  make: 'Cut a release with `make release`.',
  just: 'Seed the database with `just seed`.',
  tool: 'Run `bin/setup` once after cloning.',
};
/** Lines a dream must keep: what the repository has now, or never had (a library, the environment, a word). */
const KEPT = [
  'Settings are now read by `loadConfig()`.',
  'Build with `npm run build`; test with `make test`; migrate with `just migrate`.',
  'The API key is in `ANTHROPIC_API_KEY`; React state uses `useState`.',
  'The SDK call `fetchUser()` retries on its own; `pnpm install` sets things up.',
  'parseConfig was the old name (said in prose, not cited as code).',
  'The `main` branch is protected; pass `--verbose` to the CLI for more.',
];

/** A project whose history removed a function, a class, a flag, a script, a make target, a just recipe and a tool. */
async function driftedProject(root: string) {
  const repo = await createRepo(path.join(root, 'repo'));
  const git = simpleGit(repo);
  writeTree(repo, {
    'src/config.ts': 'export function parseConfig() {}\nexport function loadConfig() {}\nexport class LegacyLoader {}\nconst flags = ["--legacy-mode", "--verbose"];\n',
    'package.json': JSON.stringify({ name: 'p', scripts: { build: 'tsc', deploy: 'ship' } }, null, 2),
    Makefile: 'test:\n\tnpm test\nrelease: test\n\t./release.sh\n',
    justfile: 'migrate:\n    ./migrate\nseed db="dev":\n    ./seed {{db}}\n',
    'bin/setup': '#!/bin/sh\n',
  });
  await git.add('.');
  await git.commit('everything');
  writeTree(repo, {
    'src/config.ts': 'export function loadConfig() {}\nconst flags = ["--verbose"];\n',
    'package.json': JSON.stringify({ name: 'p', scripts: { build: 'tsc' } }, null, 2),
    Makefile: 'test:\n\tnpm test\n',
    justfile: 'migrate:\n    ./migrate\n',
  });
  await git.rm('bin/setup');
  await git.add('.');
  await git.commit('drop the legacy loader, deploy, release, seed, setup');
  const dir = path.join(root, 'memory');
  const files: Record<string, string> = {
    'project_drifted.md': topic('Drifted', [...Object.values(DRIFTED), 'The team meets on Tuesdays.'].join('\n')),
    'project_kept.md': topic('Kept', KEPT.join('\n')),
  };
  writeTree(dir, { ...files, 'MEMORY.md': '# Memory\n\n- [Drifted](project_drifted.md) — about Drifted\n- [Kept](project_kept.md) — about Kept\n' });
  return { repo, dir };
}

describe('dream drift: symbols, flags and commands the repository no longer has', () => {
  test('every planted citation is dropped with the reason git gives; what the repository has, or never had, stays', async () => {
    const root = tempDir();
    const home = path.join(root, 'home');
    fs.mkdirSync(home);
    const env = cleanEnv(home);
    const { repo, dir } = await driftedProject(root);
    const before = snapshotTree(dir);

    const dry = await runMemdir(['dream', '--dir', dir, '--force', '--dry-run', '--json'], { cwd: repo, env });
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { operations: Array<{ kind: string; path: string; reason: string }> };
    const drift = planned.operations.filter((o) => o.kind === 'drift');
    expect(drift.map((o) => o.path)).toEqual(Array(Object.keys(DRIFTED).length).fill('project_drifted.md'));
    const reasons = drift.map((o) => o.reason).join('\n');
    expect(reasons).toMatch(/`parseConfig\(\)`, which the repository no longer has \(git grep finds no parseConfig; removed in [0-9a-f]{7,}\)/);
    expect(reasons).toMatch(/`LegacyLoader`.*git grep finds no LegacyLoader/);
    expect(reasons).toMatch(/`--legacy-mode`.*git grep finds no legacy-mode/);
    expect(reasons).toMatch(/`npm run deploy`.*no "deploy" script in any package\.json; removed in/);
    expect(reasons).toMatch(/`make release`.*no make target "release"; removed in/);
    expect(reasons).toMatch(/`just seed`.*no just recipe "seed"; removed in/);
    expect(reasons).toMatch(/cites bin\/setup, which the repository no longer has \(deleted in its git history\)/);

    const human = await runMemdir(['dream', '--dir', dir, '--force', '--dry-run'], { cwd: repo, env });
    expect(human.stdout).toMatch(/^ {2}changed project_drifted\.md \(.*removed "Cut a release with `make release`\.": cites `make release`/m);

    const run = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    const applied = JSON.parse(run.stdout) as { operations: unknown; report: string };
    expect(applied.operations).toEqual(planned.operations);
    expect(fs.readFileSync(applied.report, 'utf8')).toContain('no "deploy" script in any package.json');
    const after = snapshotTree(dir);
    expect(after['project_kept.md']).toBe(before['project_kept.md']);
    const drifted = fs.readFileSync(path.join(dir, 'project_drifted.md'), 'utf8');
    for (const line of Object.values(DRIFTED)) expect(drifted).not.toContain(line);
    expect(drifted).toContain('The team meets on Tuesdays.');
  });

  test('outside a git work tree nothing is judged', async () => {
    const root = tempDir();
    const home = path.join(root, 'home');
    fs.mkdirSync(home);
    const { dir } = await driftedProject(root);
    const elsewhere = path.join(root, 'not-a-repo');
    fs.mkdirSync(elsewhere);
    const dry = await runMemdir(['dream', '--dir', dir, '--force', '--dry-run', '--json'], { cwd: elsewhere, env: cleanEnv(home) });
    expect(dry.code, dry.stderr).toBe(0);
    expect((JSON.parse(dry.stdout) as { operations: Array<{ kind: string }> }).operations.filter((o) => o.kind === 'drift')).toEqual([]);
  });
});
