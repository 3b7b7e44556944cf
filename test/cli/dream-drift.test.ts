import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { sanitizeProjectPath } from '../../src/core/paths.js';
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

/**
 * A project whose history removed a function, a class, a flag, a script, a make target, a just
 * recipe and a tool, and its memory where it resolves to with HOME=root/home (so it belongs to it).
 */
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
  const dir = path.join(root, 'home', '.claude', 'projects', sanitizeProjectPath(repo), 'memory');
  const files: Record<string, string> = {
    'project_drifted.md': topic('Drifted', [...Object.values(DRIFTED), 'The team meets on Tuesdays.'].join('\n')),
    'project_kept.md': topic('Kept', KEPT.join('\n')),
  };
  writeTree(dir, { ...files, 'MEMORY.md': '# Memory\n\n- [Drifted](project_drifted.md) — about Drifted\n- [Kept](project_kept.md) — about Kept\n' });
  return { repo, dir };
}

const STALE = /^\*\*Stale\?\*\* \(2026-12-03\) /;

async function workspace() {
  const root = tempDir();
  const env = cleanEnv(path.join(root, 'home'), { MEMDIR_TEST_NOW: '2026-12-03T10:00:00Z' });
  return { root, env, ...(await driftedProject(root)) };
}

describe('dream drift: symbols, flags and commands the repository no longer has', () => {
  test('every planted citation is marked stale, once, with the reason git gives; what the repository has, or never had, stays as it is', async () => {
    const { repo, dir, env } = await workspace();
    const before = snapshotTree(dir);

    const dry = await runMemdir(['dream', '--dir', dir, '--force', '--dry-run', '--json'], { cwd: repo, env });
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { operations: Array<{ kind: string; path: string; reason: string }> };
    const stale = planned.operations.filter((o) => o.kind === 'stale');
    expect(planned.operations.filter((o) => o.kind === 'drift')).toEqual([]);
    expect(stale.map((o) => o.path)).toEqual(Array(Object.keys(DRIFTED).length).fill('project_drifted.md'));
    const reasons = stale.map((o) => o.reason).join('\n');
    expect(reasons).toMatch(/`parseConfig\(\)`, which the repository no longer has \(git grep finds no parseConfig; removed in [0-9a-f]{7,}\)/);
    expect(reasons).toMatch(/`LegacyLoader`.*git grep finds no LegacyLoader/);
    expect(reasons).toMatch(/`--legacy-mode`.*git grep finds no legacy-mode/);
    expect(reasons).toMatch(/`npm run deploy`.*no "deploy" script in any package\.json; removed in/);
    expect(reasons).toMatch(/`make release`.*no make target "release"; removed in/);
    expect(reasons).toMatch(/`just seed`.*no just recipe "seed"; removed in/);
    expect(reasons).toMatch(/cites bin\/setup, which the repository no longer has \(deleted in its git history\)/);

    const run = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    const applied = JSON.parse(run.stdout) as { operations: unknown; report: string; summary: string };
    expect(applied.operations).toEqual(planned.operations);
    expect(applied.summary).toBe('Improved 1 memory (0 merged, 0 dates, 0 pruned, 7 marked stale)');
    expect(fs.readFileSync(applied.report, 'utf8')).toContain('no "deploy" script in any package.json');
    expect(snapshotTree(dir)['project_kept.md']).toBe(before['project_kept.md']);
    const lines = fs.readFileSync(path.join(dir, 'project_drifted.md'), 'utf8').split('\n');
    // Each drifted line is still there, with its note on the line after, which the agent reads with it.
    for (const line of Object.values(DRIFTED)) expect(lines[lines.indexOf(line) + 1], line).toMatch(STALE);
    expect(lines.filter((l) => STALE.test(l))).toHaveLength(Object.keys(DRIFTED).length);
    expect(lines[lines.indexOf('Pass `--legacy-mode` for configs from before 2025.') + 1]).toMatch(
      /`--legacy-mode`, which the repository no longer has \(git grep finds no legacy-mode; removed in [0-9a-f]{7,}\)$/,
    );

    // Marked once: a second run has nothing to do.
    const again = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: repo, env });
    expect(JSON.parse(again.stdout).status).toBe('unchanged');
  });

  test('--prune-drift deletes the drifted lines (and a mark an earlier run left), run from the project without --dir', async () => {
    const { repo, dir, env } = await workspace();
    // A run that marked first: pruning takes the mark with its line.
    expect((await runMemdir(['dream', '--force'], { cwd: repo, env })).code).toBe(0);
    const human = await runMemdir(['dream', '--force', '--prune-drift', '--dry-run'], { cwd: repo, env });
    expect(human.stdout).toMatch(/^ {2}changed project_drifted\.md \(.*removed "Cut a release with `make release`\.": cites `make release`/m);
    const run = await runMemdir(['dream', '--force', '--prune-drift', '--json'], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).dir).toBe(dir);
    const drifted = fs.readFileSync(path.join(dir, 'project_drifted.md'), 'utf8');
    for (const line of Object.values(DRIFTED)) expect(drifted).not.toContain(line);
    expect(drifted).not.toContain('**Stale?**');
    expect(drifted).toContain('The team meets on Tuesdays.');
    for (const line of KEPT) expect(fs.readFileSync(path.join(dir, 'project_kept.md'), 'utf8')).toContain(line);
  });

  test('a --dir outside any repository, started inside an unrelated one: no drift finding from that repository, said once', async () => {
    const { root, repo, env } = await workspace();
    // The same memories, kept elsewhere: the repository the command runs in is not theirs.
    const elsewhere = path.join(root, 'elsewhere', 'memory');
    fs.cpSync(path.join(root, 'home', '.claude', 'projects', sanitizeProjectPath(repo), 'memory'), elsewhere, { recursive: true });
    const before = snapshotTree(elsewhere);
    const run = await runMemdir(['dream', '--dir', elsewhere, '--force', '--prune-drift', '--json'], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { status: string; operations: Array<{ kind: string }>; repository: string | null };
    expect(result.operations.filter((o) => o.kind === 'drift' || o.kind === 'stale')).toEqual([]);
    expect(result.status).toBe('unchanged');
    const memories = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).filter(([file]) => !file.startsWith('.')));
    expect(memories(snapshotTree(elsewhere))).toEqual(memories(before));
    expect(run.stderr.match(/drift not checked: /g)).toHaveLength(1);
    expect(run.stderr).toContain(`drift not checked: ${elsewhere} belongs to no git repository`);
  });

  test('outside a git work tree nothing is judged', async () => {
    const { root, dir, env } = await workspace();
    const elsewhere = path.join(root, 'not-a-repo');
    fs.mkdirSync(elsewhere);
    const dry = await runMemdir(['dream', '--dir', dir, '--force', '--dry-run', '--json'], { cwd: elsewhere, env });
    expect(dry.code, dry.stderr).toBe(0);
    expect((JSON.parse(dry.stdout) as { operations: Array<{ kind: string }> }).operations.filter((o) => o.kind === 'drift' || o.kind === 'stale')).toEqual([]);
  });
});
