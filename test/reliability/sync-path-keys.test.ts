import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { caseCollisions, keyProblem } from '../../src/sync/keys.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';
import { startTeamMemoryServer, type TeamMemoryServer } from '../helpers/team-memory-server.js';
import { pushRawTree, teamSetup, topic } from '../helpers/team-sync.js';

/** Keys a hostile remote or a hostile checkout could hand to sync. Every one must be refused. */
const HOSTILE_KEYS: Array<[string, string]> = [
  ['parent traversal', '../escape.md'],
  ['traversal through a folder', 'notes/../../escape.md'],
  ['absolute path', '/tmp/escape.md'],
  ['drive letter', 'C:/escape.md'],
  ['backslash traversal', '..\\escape.md'],
  ['backslash inside', 'notes\\..\\..\\escape.md'],
  ['URL-encoded dots', '%2e%2e/escape.md'],
  ['URL-encoded slash', '..%2fescape.md'],
  ['URL-encoded backslash', '%2e%2e%5cescape.md'],
  ['NUL byte', 'escape\0.md'],
  ['fullwidth dots', '\uff0e\uff0e/escape.md'],
  ['division slash', '..\u2215escape.md'],
  ['decomposed accent (NFD)', 'cafe\u0301.md'],
  ['compatibility ligature', '\ufb01le.md'],
  ['bidi override', 'evil\u202egpj.md'],
  ['newline', 'line\nbreak.md'],
  ['git internals', '.git/hooks/pre-commit.md'],
  ['memdir state', '.memdir/journal.md'],
  ['dot segment', 'notes/./x.md'],
  ['empty segment', 'notes//x.md'],
  ['trailing space segment', 'notes /x.md'],
  ['not Markdown', 'run.sh'],
];

describe('path keys (pure)', () => {
  test.each(HOSTILE_KEYS)('%s is refused', (_what, key) => expect(keyProblem(key)).toBeDefined());
  test('ordinary keys pass', () => {
    for (const key of ['MEMORY.md', 'project_freeze.md', 'notes/deploy-2026.md', 'café.md', 'Ünïcode notes.md']) expect(keyProblem(key), key).toBeUndefined();
  });
  test('keys differing only in case collide', () => expect([...caseCollisions(['project_x.md', 'Project_X.md', 'other.md'])].sort()).toEqual(['Project_X.md', 'project_x.md']));
});

let server: TeamMemoryServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('path-key attacks over the HTTP backend', () => {
  test('from the remote: every hostile key refused, nothing written outside team/', async () => {
    server = await startTeamMemoryServer();
    const root = tempDir('memdir-keys-');
    const mem = path.join(root, 'deep/memory');
    writeTree(root, { 'outside.txt': 'keep\n' });
    server.put('acme/w', 'project_ok.md', topic('Ok', 'fine'));
    for (const [, key] of HOSTILE_KEYS) server.put('acme/w', key, topic('Evil', 'pwned'));
    server.put('acme/w', 'Project_Twin.md', topic('Evil', 'case twin'));
    server.put('acme/w', 'project_twin.md', topic('Evil', 'case twin'));
    const before = snapshotTree(root);
    const r = await runMemdir(['sync', 'pull', '--dir', mem, '--backend', 'http', '--url', server.url, '--repo', 'acme/w', '--json'], { cwd: root, env: cleanEnv(root) });
    expect(r.code, r.stderr).toBe(0);
    const files = (JSON.parse(r.stdout) as { files: Array<{ file: string; status: string }> }).files;
    for (const [, key] of [...HOSTILE_KEYS, ['', 'Project_Twin.md'], ['', 'project_twin.md']]) expect(files.find((f) => f.file === key)?.status, JSON.stringify(key)).toBe('skipped');
    const after = snapshotTree(root);
    const added = Object.keys(after).filter((f) => !(f in before));
    expect(added.filter((f) => !f.startsWith('deep/memory/.memdir/'))).toEqual(['deep/memory/team/project_ok.md']);
    expect(fs.readdirSync(path.join(mem, 'team'))).toEqual(['project_ok.md']);
  });

  test('from the local side: hostile names and symlinks out of team/ are never uploaded', async () => {
    server = await startTeamMemoryServer();
    const root = tempDir('memdir-keys-');
    const mem = path.join(root, 'memory');
    const team = path.join(mem, 'team');
    writeTree(root, { 'secret-outside.md': topic('Outside', 'must not leave') });
    const onDisk = HOSTILE_KEYS.map(([, key]) => key).filter(
      (key) => !key.includes('\0') && !key.startsWith('/') && !key.includes('/../') && !key.startsWith('../') && !key.includes('//') && !key.includes('/./'),
    );
    writeTree(
      team,
      Object.fromEntries([
        ...onDisk.map((key) => [key, topic('Evil', 'x')]),
        ['project_ok.md', topic('Ok', 'ok')],
        ['Project_Twin.md', topic('Twin', 'twin')],
        ['project_twin.md', topic('Twin', 'twin')],
      ]),
    );
    fs.symlinkSync(path.join(root, 'secret-outside.md'), path.join(team, 'link.md'));
    fs.symlinkSync(root, path.join(team, 'linked-dir'));
    const r = await runMemdir(['sync', 'push', '--dir', mem, '--backend', 'http', '--url', server.url, '--repo', 'acme/w', '--json'], { cwd: root, env: cleanEnv(root) });
    expect(r.code, r.stderr).toBe(0);
    expect([...server.entries('acme/w').keys()]).toEqual(['project_ok.md']);
    const files = (JSON.parse(r.stdout) as { files: Array<{ file: string; status: string }> }).files;
    expect(files.find((f) => f.file === 'link.md')?.status).toBe('skipped');
    expect(files.find((f) => f.file === 'Project_Twin.md')?.status).toBe('skipped');
    expect(files.find((f) => f.file === 'project_twin.md')?.status).toBe('skipped');
    expect(onDisk.length).toBeGreaterThanOrEqual(15);
  });
});

describe('path-key attacks over the git backend', () => {
  test('a remote branch with hostile paths and a symlink: all refused, nothing written outside team/', async () => {
    const { clones, sync, remote, root } = await teamSetup(['a']);
    const representable = HOSTILE_KEYS.map(([, key]) => key).filter((key) => !key.includes('\0') && !key.startsWith('/') && !key.includes('//'));
    pushRawTree(remote, [
      { path: 'project_ok.md', content: topic('Ok', 'fine') },
      { path: 'link.md', content: '../../../outside.md', mode: '120000' },
      ...representable.map((key) => ({ path: key, content: topic('Evil', 'pwned') })),
    ]);
    const before = snapshotTree(root);
    const r = await sync(clones.a!, ['pull', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const files = (JSON.parse(r.stdout) as { files: Array<{ file: string; status: string }> }).files;
    for (const key of [...representable, 'link.md']) expect(files.find((f) => f.file === key)?.status, JSON.stringify(key)).toBe('skipped');
    const added = Object.keys(snapshotTree(root)).filter((f) => !(f in before) && !f.includes('/.memdir/'));
    expect(added).toEqual(['a-memory/team/project_ok.md']);
    expect(representable.length).toBeGreaterThanOrEqual(15);
  });
});
