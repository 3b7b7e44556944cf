import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandExample } from '../../src/core/secrets.js';
import { runMemdir } from '../helpers/run-cli.js';
import { teamSetup, topic, writeTeam } from '../helpers/team-sync.js';

const token = expandExample('ghp_{an:36}');
type Report = { files: Array<{ file: string; status: string; reason?: string }>; summary: Record<string, number> };
const json = (stdout: string) => JSON.parse(stdout) as Report;
const entry = (stdout: string, file: string) => json(stdout).files.find((f) => f.file === file);
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

describe('memdir sync: the team index on the remote points only at files on the remote', () => {
  test('three clones: a file refused for a secret keeps its pointer local; teammates pull an index without it and lint clean', async () => {
    const { clones, sync, remoteFiles, env } = await teamSetup(['a', 'b', 'c']);
    const { a, b, c } = clones as Record<'a' | 'b' | 'c', (typeof clones)[string]>;
    const indexA = '# Team memory\n- [Ok](project_ok.md) — the release train leaves Thursdays\n- [CI](reference_ci.md) — the CI token\n';
    writeTeam(a!, {
      'MEMORY.md': indexA,
      'project_ok.md': topic('Ok', 'The release train leaves on Thursdays.'),
      'reference_ci.md': topic('CI', `token ${token} for CI`, 'reference'),
    });
    const pushed = await sync(a!);
    expect(pushed.code, pushed.stderr).toBe(1);
    expect(pushed.stdout).toMatch(/refused\s+team\/reference_ci\.md\s+contains a secret \(github-pat\)/);
    expect(pushed.stdout).toMatch(/pushed\s+team\/MEMORY\.md\s+kept local: pointer to reference_ci\.md \(refused: github-pat\)\n/);
    expect(pushed.stdout).not.toContain(token.slice(4, 20));
    const remote = await remoteFiles();
    expect(Object.keys(remote).sort()).toEqual(['MEMORY.md', 'project_ok.md']);
    expect(remote['MEMORY.md']).toBe('# Team memory\n- [Ok](project_ok.md) — the release train leaves Thursdays\n');
    // The pusher keeps its pointer: the file is still here, only not shared.
    expect(read(a!.team, 'MEMORY.md')).toBe(indexA);

    const pulled = await sync(b!);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(read(b!.team, 'MEMORY.md')).toBe(remote['MEMORY.md']);
    const lint = await runMemdir(['lint', '--dir', b!.team], { cwd: b!.repo, env: env() });
    expect(lint.code, lint.stdout + lint.stderr).toBe(0);

    // A third clone adds a memory; the pusher's next sync merges it in and still keeps its pointer to itself.
    const saved = await runMemdir(['save', '--dir', c!.team, '--type', 'project', '--name', 'Staging URL', '--description', 'where staging lives', '--body', 'Staging is staging.example.com.'], {
      cwd: c!.repo,
      env: env(),
    });
    expect(saved.code, saved.stderr).toBe(0);
    expect((await sync(c!)).code).toBe(0);
    const again = await sync(a!, ['--json']);
    expect(again.code, again.stderr).toBe(1);
    expect(entry(again.stdout, 'reference_ci.md')?.status).toBe('refused');
    const index = (await remoteFiles())['MEMORY.md']!;
    expect(index).toContain('(project_ok.md)');
    expect(index).toContain('(project_staging_url.md)');
    expect(index).not.toContain('reference_ci.md');
    expect(read(a!.team, 'MEMORY.md')).toContain('(reference_ci.md)');
    expect(read(a!.team, 'MEMORY.md')).toContain('(project_staging_url.md)');
    expect((await sync(b!)).code).toBe(0);
    const lintAgain = await runMemdir(['lint', '--dir', b!.team], { cwd: b!.repo, env: env() });
    expect(lintAgain.code, lintAgain.stdout + lintAgain.stderr).toBe(0);
  });
});

describe('memdir sync: a file changed on both sides is never overwritten', () => {
  test('three clones: the local file stays, the remote version is the conflict copy (exit 1); --resolve --ours pushes yours, --theirs takes the remote', async () => {
    const { clones, sync, remoteFiles, remote } = await teamSetup(['a', 'b', 'c']);
    const { a, b, c } = clones as Record<'a' | 'b' | 'c', (typeof clones)[string]>;
    writeTeam(a!, { 'project_x.md': topic('X', 'first'), 'project_y.md': topic('Y', 'first') });
    expect((await sync(a!)).code).toBe(0);
    expect((await sync(b!)).code).toBe(0);
    expect((await sync(c!)).code).toBe(0);

    writeTeam(a!, { 'project_x.md': topic('X', 'from a') });
    expect((await sync(a!)).code).toBe(0);
    writeTeam(b!, { 'project_x.md': topic('X', 'from b'), 'project_y.md': topic('Y', 'from b') });
    const conflicted = await sync(b!);
    expect(conflicted.code, conflicted.stderr).toBe(1);
    expect(conflicted.stdout).toBe(
      [
        "conflict  team/project_x.md  changed here and on the remote since the last sync: yours kept, the remote's version written to team/.conflicts/project_x.md; not uploaded until `memdir sync --resolve FILE --ours|--theirs`",
        'pushed    team/project_y.md',
        `0 pulled, 1 pushed, 0 removed, 0 unchanged, 0 skipped, 0 refused, 1 conflict (${remote} (branch memdir/team))`,
        '',
      ].join('\n'),
    );
    expect(read(b!.team, 'project_x.md')).toBe(topic('X', 'from b'));
    expect(read(b!.team, '.conflicts/project_x.md')).toBe(topic('X', 'from a'));
    expect((await remoteFiles())['project_x.md']).toBe(topic('X', 'from a'));
    // Still a conflict on the next run: nothing is settled behind the user's back.
    const still = await sync(b!, ['--json']);
    expect(still.code).toBe(1);
    expect(entry(still.stdout, 'project_x.md')?.status).toBe('conflict');
    expect(json(still.stdout).summary.conflict).toBe(1);
    // The copy is no memory: never read as a team file, never uploaded.
    expect(json(still.stdout).files.map((f) => f.file)).toEqual(['project_x.md', 'project_y.md']);
    expect(Object.keys(await remoteFiles()).sort()).toEqual(['project_x.md', 'project_y.md']);
    expect((await remoteFiles())['project_x.md']).toBe(topic('X', 'from a'));

    const ours = await sync(b!, ['--resolve', 'team/project_x.md', '--ours']);
    expect(ours.code, ours.stderr).toBe(0);
    expect(ours.stdout).toBe('resolved team/project_x.md: yours kept; the next sync pushes it\n');
    expect(fs.existsSync(path.join(b!.team, '.conflicts'))).toBe(false);
    const afterOurs = await sync(b!, ['--json']);
    expect(afterOurs.code, afterOurs.stderr).toBe(0);
    expect(entry(afterOurs.stdout, 'project_x.md')?.status).toBe('pushed');
    expect((await remoteFiles())['project_x.md']).toBe(topic('X', 'from b'));
    // c changed nothing: the remote wins there, as before.
    const pulledC = await sync(c!, ['--json']);
    expect(pulledC.code, pulledC.stderr).toBe(0);
    expect(entry(pulledC.stdout, 'project_x.md')?.status).toBe('pulled');
    expect(read(c!.team, 'project_x.md')).toBe(topic('X', 'from b'));

    writeTeam(a!, { 'project_x.md': topic('X', 'from a again') });
    expect((await sync(a!)).code).toBe(1); // a changed x after b's push landed: its own conflict
    expect(read(a!.team, '.conflicts/project_x.md')).toBe(topic('X', 'from b'));
    writeTeam(c!, { 'project_x.md': topic('X', 'from c') });
    expect((await sync(c!)).code).toBe(0);
    const theirsAtA = await sync(a!, ['--resolve', path.join(a!.team, 'project_x.md'), '--theirs', '--json']);
    expect(theirsAtA.code, theirsAtA.stderr).toBe(0);
    expect(JSON.parse(theirsAtA.stdout)).toEqual({ file: 'team/project_x.md', side: 'theirs', removed: 'team/.conflicts/project_x.md' });
    // The copy taken is the one the conflict kept (b's); c's later push is a plain remote change now.
    expect(read(a!.team, 'project_x.md')).toBe(topic('X', 'from b'));
    const afterTheirs = await sync(a!, ['--json']);
    expect(afterTheirs.code, afterTheirs.stderr).toBe(0);
    expect(entry(afterTheirs.stdout, 'project_x.md')?.status).toBe('pulled');
    expect(read(a!.team, 'project_x.md')).toBe(topic('X', 'from c'));
    expect((await remoteFiles())['project_x.md']).toBe(topic('X', 'from c'));
    expect(fs.existsSync(path.join(a!.team, '.conflicts'))).toBe(false);
  });

  test("a conflict settled by hand (the file made the remote's again) needs no --resolve: the next sync finds it in step and drops the copy", async () => {
    const { clones, sync } = await teamSetup(['a', 'b']);
    const { a, b } = clones;
    writeTeam(a!, { 'sub/project_x.md': topic('X', 'first') });
    expect((await sync(a!)).code).toBe(0);
    expect((await sync(b!)).code).toBe(0);
    writeTeam(a!, { 'sub/project_x.md': topic('X', 'from a') });
    expect((await sync(a!)).code).toBe(0);
    writeTeam(b!, { 'sub/project_x.md': topic('X', 'from b') });
    const dry = await sync(b!, ['--dry-run', '--json']);
    expect(dry.code).toBe(1);
    expect(entry(dry.stdout, 'sub/project_x.md')?.status).toBe('conflict');
    expect(fs.existsSync(path.join(b!.team, '.conflicts'))).toBe(false);
    expect((await sync(b!)).code).toBe(1);
    fs.copyFileSync(path.join(b!.team, '.conflicts/sub/project_x.md'), path.join(b!.team, 'sub/project_x.md'));
    const settled = await sync(b!, ['--json']);
    expect(settled.code, settled.stderr).toBe(0);
    expect(json(settled.stdout).summary.conflict).toBe(0);
    expect(fs.existsSync(path.join(b!.team, '.conflicts'))).toBe(false);
    expect(read(b!.team, 'sub/project_x.md')).toBe(topic('X', 'from a'));
  });

  test('--resolve of a file with no conflict, or without a side: one line, exit 2, nothing changed', async () => {
    const { clones, sync } = await teamSetup(['a']);
    const { a } = clones;
    writeTeam(a!, { 'project_x.md': topic('X', 'x') });
    expect((await sync(a!)).code).toBe(0);
    const none = await sync(a!, ['--resolve', 'team/project_x.md', '--theirs']);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe('memdir: sync --resolve: team/project_x.md has no conflict copy (team/.conflicts/project_x.md); nothing to resolve');
    const noSide = await sync(a!, ['--resolve', 'team/project_x.md']);
    expect(noSide.code).toBe(2);
    expect(noSide.stderr).toContain('needs --ours');
    const both = await sync(a!, ['--resolve', 'team/project_x.md', '--ours', '--theirs']);
    expect(both.code).toBe(2);
    const outside = await sync(a!, ['--resolve', '../outside.md', '--ours']);
    expect(outside.code).toBe(2);
    expect(outside.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(read(a!.team, 'project_x.md')).toBe(topic('X', 'x'));
  });
});
