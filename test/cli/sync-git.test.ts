import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { expandExample } from '../../src/core/secrets.js';
import { runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir } from '../helpers/temp.js';
import { teamSetup, topic, writeTeam } from '../helpers/team-sync.js';

const token = expandExample('ghp_{an:36}');
const json = (stdout: string) => JSON.parse(stdout) as { retries: number; files: Array<{ file: string; status: string; reason?: string; rules?: string[] }>; summary: Record<string, number> };
const statusOf = (stdout: string, file: string) => json(stdout).files.find((f) => f.file === file)?.status;

describe('memdir sync over a git remote', () => {
  test('three clones: memories saved in two concurrently both reach the third; the racing pushes both land (one retried)', async () => {
    const { clones, sync, remoteFiles, env, root } = await teamSetup(['a', 'b', 'c']);
    const { a, b, c } = clones as Record<'a' | 'b' | 'c', (typeof clones)[string]>;
    for (const [clone, name] of [
      [a!, 'Deploy freeze'],
      [b!, 'Staging URL'],
    ] as const) {
      const saved = await runMemdir(['save', '--dir', clone.team, '--type', 'project', '--name', name, '--description', `about ${name}`, '--body', `${name} body`], { cwd: clone.repo, env: env() });
      expect(saved.code, saved.stderr).toBe(0);
    }
    // Both fetch, then wait for each other before pushing: the second push is a real non-fast-forward.
    const barrier = `${path.join(root, 'barrier')}::2`;
    const [ra, rb] = await Promise.all([sync(a!, ['--json'], { MEMDIR_SYNC_PUSH_BARRIER: barrier }), sync(b!, ['--json'], { MEMDIR_SYNC_PUSH_BARRIER: barrier })]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    expect(json(ra.stdout).retries + json(rb.stdout).retries).toBeGreaterThanOrEqual(1);
    const rc = await sync(c!, ['--json']);
    expect(rc.code, rc.stderr).toBe(0);
    expect(fs.readFileSync(path.join(c!.team, 'project_deploy_freeze.md'), 'utf8')).toContain('Deploy freeze body');
    expect(fs.readFileSync(path.join(c!.team, 'project_staging_url.md'), 'utf8')).toContain('Staging URL body');
    // Both wrote MEMORY.md: the one that pushed second merged the pointers, so the index points at both.
    expect(Object.keys(await remoteFiles()).sort()).toEqual(['MEMORY.md', 'project_deploy_freeze.md', 'project_staging_url.md']);
    const index = fs.readFileSync(path.join(c!.team, 'MEMORY.md'), 'utf8');
    expect(index).toContain('(project_deploy_freeze.md)');
    expect(index).toContain('(project_staging_url.md)');
    const log = await simpleGit(path.join(root, 'remote.git')).raw(['log', '--format=%an%n%b', 'memdir/team']);
    expect(log).toContain('memdir test');
    expect(log).toMatch(/Memdir-Machine: \S+/);
  });

  test('a file changed only on the remote is pulled; a file changed only here is pushed', async () => {
    const { clones, sync, remoteFiles } = await teamSetup(['a', 'b']);
    const { a, b } = clones;
    writeTeam(a!, { 'project_x.md': topic('X', 'first'), 'project_y.md': topic('Y', 'first') });
    expect((await sync(a!)).code).toBe(0);
    expect((await sync(b!)).code).toBe(0);
    writeTeam(a!, { 'project_x.md': topic('X', 'from a') });
    expect((await sync(a!)).code).toBe(0);
    writeTeam(b!, { 'project_y.md': topic('Y', 'from b') });
    const rb = await sync(b!, ['--json']);
    expect(rb.code, rb.stderr).toBe(0);
    expect(statusOf(rb.stdout, 'project_x.md')).toBe('pulled');
    expect(statusOf(rb.stdout, 'project_y.md')).toBe('pushed');
    expect(fs.readFileSync(path.join(b!.team, 'project_x.md'), 'utf8')).toContain('from a');
    const remote = await remoteFiles();
    expect(remote['project_x.md']).toContain('from a');
    expect(remote['project_y.md']).toContain('from b');
  });

  test('local deletions are not propagated; --prune opts in; local files the remote lacks stay', async () => {
    const { clones, sync, remoteFiles } = await teamSetup(['a', 'b']);
    const { a, b } = clones;
    writeTeam(a!, { 'project_x.md': topic('X', 'x'), 'project_z.md': topic('Z', 'z') });
    expect((await sync(a!)).code).toBe(0);
    writeTeam(b!, { 'project_local.md': topic('Local', 'only here') });
    expect((await sync(b!, ['pull'])).code).toBe(0);
    expect(fs.existsSync(path.join(b!.team, 'project_local.md'))).toBe(true);
    fs.rmSync(path.join(a!.team, 'project_x.md'));
    expect((await sync(a!, ['push'])).code).toBe(0);
    expect(Object.keys(await remoteFiles())).toContain('project_x.md');
    const pruned = await sync(a!, ['push', '--prune', '--json']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(statusOf(pruned.stdout, 'project_x.md')).toBe('removed');
    expect(Object.keys(await remoteFiles())).not.toContain('project_x.md');
    // b keeps its copy: a deletion elsewhere never deletes here.
    expect((await sync(b!, ['pull'])).code).toBe(0);
    expect(fs.existsSync(path.join(b!.team, 'project_x.md'))).toBe(true);
  });

  test('a file with a secret is refused (exit 1, file and rule named, never the secret); --redact uploads it redacted; --write rewrites it here', async () => {
    const { clones, sync, remoteFiles } = await teamSetup(['a']);
    const { a } = clones;
    writeTeam(a!, { 'reference_ci.md': topic('CI', `token ${token} for CI`, 'reference'), 'project_ok.md': topic('Ok', 'fine') });
    for (const args of [[], ['--json'], ['--debug']]) {
      const refused = await sync(a!, ['push', ...args]);
      expect(refused.code).toBe(1);
      expect(refused.stdout + refused.stderr).toMatch(/reference_ci\.md[\s\S]*github-pat/);
      expect(refused.stdout + refused.stderr).not.toContain(token.slice(4, 20));
    }
    expect(Object.keys(await remoteFiles())).toEqual(['project_ok.md']);
    const redacted = await sync(a!, ['push', '--redact']);
    expect(redacted.code, redacted.stderr).toBe(0);
    expect(redacted.stdout).not.toContain(token.slice(4, 20));
    expect((await remoteFiles())['reference_ci.md']).toContain('token [REDACTED] for CI');
    expect(fs.readFileSync(path.join(a!.team, 'reference_ci.md'), 'utf8')).toContain(token);
    expect((await sync(a!, ['push', '--redact', '--write'])).code).toBe(0);
    expect(fs.readFileSync(path.join(a!.team, 'reference_ci.md'), 'utf8')).toContain('token [REDACTED] for CI');
  });

  test('a secret in a file name, in prose, in frontmatter or in a key block without END: refused, never uploaded or printed; --redact takes the rest of an unterminated key', async () => {
    const { clones, sync, remoteFiles } = await teamSetup(['a']);
    const { a } = clones;
    const keyBody = expandExample('{b64:64}\n{b64:64}\n{b64:40}');
    writeTeam(a!, {
      [`reference_${token}.md`]: topic('CI token', 'the CI token file', 'reference'),
      'project_db.md': topic('DB', 'the staging db password is hunter2Xy9!q, ask ops before using it'),
      'reference_deploy.md': `---\nname: Deploy\ndescription: deploy with ${token}\ntype: reference\n---\nDeploys go through CI.\n`,
      'reference_key.md': topic('Deploy key', `the deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${keyBody}\n`, 'reference'),
      'project_ok.md': topic('Ok', 'fine'),
    });
    for (const args of [[], ['--json'], ['--debug']]) {
      const refused = await sync(a!, ['push', ...args]);
      const printed = refused.stdout + refused.stderr;
      expect(refused.code).toBe(1);
      expect(printed).toMatch(/reference_\[REDACTED\]\.md[\s\S]*file name contains a secret \(github-pat\)/);
      expect(printed).toMatch(/project_db\.md[\s\S]*prose-credential/);
      expect(printed).toMatch(/reference_deploy\.md[\s\S]*github-pat/);
      expect(printed).toMatch(/reference_key\.md[\s\S]*private-key-block/);
      for (const secret of [token.slice(4, 20), 'hunter2Xy9', keyBody.slice(0, 20)]) expect(printed).not.toContain(secret);
    }
    expect(Object.keys(await remoteFiles())).toEqual(['project_ok.md']);
    const redacted = await sync(a!, ['push', '--redact']);
    expect(redacted.code).toBe(1); // the name cannot be redacted: still refused
    const remote = await remoteFiles();
    expect(Object.keys(remote).sort()).toEqual(['project_db.md', 'project_ok.md', 'reference_deploy.md', 'reference_key.md']);
    expect(remote['reference_key.md']).toBe('---\nname: Deploy key\ndescription: about Deploy key\ntype: reference\n---\nthe deploy key:\n[REDACTED]');
    expect(remote['project_db.md']).toContain('password is [REDACTED], ask ops');
    expect(JSON.stringify(remote)).not.toContain(token.slice(4, 20));
  });

  test('--dry-run writes nothing on either side', async () => {
    const { clones, sync, remoteFiles } = await teamSetup(['a', 'b']);
    const { a, b } = clones;
    writeTeam(a!, { 'project_x.md': topic('X', 'x') });
    expect((await sync(a!)).code).toBe(0);
    writeTeam(b!, { 'project_y.md': topic('Y', 'y') });
    const before = snapshotTree(b!.mem);
    const dry = await sync(b!, ['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/pulled\s+team\/project_x\.md/);
    expect(dry.stdout).toMatch(/pushed\s+team\/project_y\.md/);
    expect(dry.stdout).toMatch(/dry run/);
    expect(Object.keys(snapshotTree(b!.mem)).filter((f) => !f.startsWith('.memdir'))).toEqual(Object.keys(before));
    expect(Object.keys(await remoteFiles())).toEqual(['project_x.md']);
  });

  test('a memory directory inside the project: the private clone under .memdir/ leaves the project clean', async () => {
    const { clones, env } = await teamSetup(['a']);
    const mem = path.join(clones.a!.repo, 'memory');
    fs.mkdirSync(path.join(mem, 'team'), { recursive: true });
    fs.writeFileSync(path.join(mem, 'team', 'project_x.md'), topic('X', 'x'));
    const project = simpleGit(clones.a!.repo);
    await project.add('memory/team/project_x.md');
    await project.commit('team memory');
    const r = await runMemdir(['sync', '--dir', mem], { cwd: clones.a!.repo, env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(mem, '.memdir/sync/git/HEAD'))).toBe(true);
    expect(await project.raw(['status', '--porcelain'])).toBe('');
  });

  test('a remote that cannot be reached: exit 2, one line naming it', async () => {
    const { clones, sync, root } = await teamSetup(['a']);
    writeTeam(clones.a!, { 'project_x.md': topic('X', 'x') });
    const missing = path.join(root, 'nowhere.git');
    const r = await sync(clones.a!, ['--remote', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(missing);
    const noOrigin = await runMemdir(['sync', '--dir', clones.a!.mem, '--remote', 'upstream'], { cwd: clones.a!.repo, env: { PATH: process.env.PATH, HOME: tempDir() } });
    expect(noOrigin.code).toBe(2);
    expect(noOrigin.stderr).toMatch(/no git remote "upstream"/);
  });

  test('save refuses to write a secret into team/ (nothing written); outside team/ lint reports it without printing it', async () => {
    const { clones, env } = await teamSetup(['a']);
    const { a } = clones;
    const refused = await runMemdir(['save', '--dir', a!.team, '--type', 'reference', '--name', 'CI', '--description', 'the CI token', '--body', `token ${token}`], { cwd: a!.repo, env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/contains a secret \(github-pat\)/);
    expect(refused.stderr).not.toContain(token.slice(4, 20));
    expect(fs.readdirSync(a!.team).filter((f) => f.endsWith('.md'))).toEqual([]);
    fs.mkdirSync(a!.mem, { recursive: true });
    fs.writeFileSync(path.join(a!.mem, 'reference_ci.md'), topic('CI', `token ${token}`, 'reference'));
    for (const format of ['stylish', 'json', 'sarif']) {
      const lint = await runMemdir(['lint', a!.mem, '--format', format, '--debug'], { cwd: a!.repo, env: env() });
      expect(lint.stdout + lint.stderr).toContain('github-pat');
      expect(lint.stdout + lint.stderr).not.toContain(token.slice(4, 20));
    }
  });
});
