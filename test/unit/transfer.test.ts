import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readTar, writeTar } from '../../src/core/tar.js';
import { exportMemory, importMemory, InputError } from '../../src/index.js';
import { personalBranchName } from '../../src/sync/command.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

describe('the personal branch name', () => {
  test('one per project, the same from every clone of it: named after the origin, any URL form', () => {
    const https = personalBranchName('https://user:tok@github.com/acme/app.git', '/home/a/.claude/projects/-home-a-app/memory');
    expect(https).toBe('memdir/personal/github-com-acme-app');
    expect(personalBranchName('git@github.com:acme/app.git', '/Users/b/.claude/projects/-Users-b-code-app/memory')).toBe(https);
    expect(personalBranchName('ssh://git@github.com/acme/app', '/x/memory')).toBe(https);
    expect(personalBranchName('git@github.com:acme/api.git', '/x/memory')).not.toBe(https);
  });

  test('without an origin: the memory folder (Claude Code project key), else the path; long names end in a hash', () => {
    expect(personalBranchName(undefined, '/home/a/.claude/projects/-home-a-my-app/memory')).toBe('memdir/personal/home-a-my-app');
    expect(personalBranchName(undefined, '/srv/notes')).toBe('memdir/personal/srv-notes');
    const long = personalBranchName(`https://example.com/${'a/'.repeat(80)}x.git`, '/m');
    expect(long).toMatch(/^memdir\/personal\/[A-Za-z0-9-]{80}-[0-9a-f]{8}$/);
    expect(personalBranchName(`https://example.com/${'a/'.repeat(80)}y.git`, '/m')).not.toBe(long);
  });
});

describe('tar', () => {
  test('what writeTar writes, tar reads, and readTar reads back; long names through pax', () => {
    const long = `${'folder_with_a_long_name/'.repeat(8)}reference_é.md`;
    const files = [
      { path: 'MEMORY.md', bytes: Buffer.from('- [A](a.md) — a\n') },
      { path: long, bytes: Buffer.from('x'.repeat(1000)) },
      { path: 'empty.md', bytes: Buffer.alloc(0) },
    ];
    const tar = writeTar(files);
    const file = path.join(tempDir('memdir-tar-'), 'a.tar');
    fs.writeFileSync(file, tar);
    expect(spawnSync('tar', ['-tf', file], { encoding: 'utf8' }).stdout.trim().split('\n')).toEqual(['MEMORY.md', long, 'empty.md']);
    const read = readTar(tar);
    expect(read).toEqual({ entries: files.map((f) => ({ path: f.path, type: 'file', bytes: f.bytes })) });
  });

  test('what GNU tar writes: folders, ./ names, long names, links reported by kind', () => {
    const dir = tempDir('memdir-tar-');
    const long = `${'deep_folder/'.repeat(10)}topic.md`;
    fs.mkdirSync(path.join(dir, 'src', path.dirname(long)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', long), 'long');
    fs.writeFileSync(path.join(dir, 'src', 'a.md'), 'a');
    fs.symlinkSync('a.md', path.join(dir, 'src', 'link.md'));
    const file = path.join(dir, 'gnu.tar');
    expect(spawnSync('tar', ['-cf', file, '-C', path.join(dir, 'src'), '.'], { encoding: 'utf8' }).status).toBe(0);
    const read = readTar(fs.readFileSync(file));
    if ('problem' in read) throw new Error(read.problem);
    const byPath = new Map(read.entries.map((e) => [e.path, e]));
    expect(byPath.get(`./${long}`)).toMatchObject({ type: 'file', bytes: Buffer.from('long') });
    expect(byPath.get('./a.md')).toMatchObject({ type: 'file', bytes: Buffer.from('a') });
    expect(byPath.get('./link.md')).toMatchObject({ type: 'link', kind: 'a symbolic link' });
    expect(byPath.get('./deep_folder/')).toMatchObject({ type: 'dir' });
  });

  test('not a tar, truncated, or a bad checksum: the problem, never entries', () => {
    expect(readTar(Buffer.from('hello'))).toEqual({ problem: 'not a tar archive (empty)' });
    expect(readTar(Buffer.alloc(1024, 65))).toEqual({ problem: 'not a tar archive' });
    const tar = writeTar([{ path: 'a.md', bytes: Buffer.from('x'.repeat(600)) }]);
    expect(readTar(tar.subarray(0, 1024))).toEqual({ problem: 'truncated tar archive at byte 0' });
    expect(readTar(tar.subarray(0, 1536))).toEqual({ problem: 'truncated tar archive (no end marker)' });
    const corrupt = Buffer.from(tar);
    corrupt[10] = 0x41;
    expect(readTar(corrupt)).toEqual({ problem: 'not a tar archive' });
  });
});

describe('exportMemory / importMemory (the library)', () => {
  test('a folder round trip, then a second import that finds a conflict and keeps the file here', async () => {
    const root = tempDir('memdir-transfer-api-');
    const from = path.join(root, 'from');
    writeTree(from, { 'MEMORY.md': '- [A](a.md) — a\n', 'a.md': '---\nname: A\ndescription: a\ntype: user\n---\nA.\n', 'team/MEMORY.md': '- [T](t.md) — t\n' });
    expect(exportMemory(from, { out: path.join(root, 'out') })).toEqual({ out: path.join(root, 'out'), files: ['MEMORY.md', 'a.md'], skipped: [] });
    const to = path.join(root, 'to');
    const first = await importMemory(to, path.join(root, 'out'));
    expect(first.summary).toEqual({ imported: 2, replaced: 0, merged: 0, unchanged: 0, conflict: 0, refused: 0, skipped: 0 });
    fs.writeFileSync(path.join(to, 'a.md'), '---\nname: A\ndescription: a\ntype: user\n---\nMine.\n');
    const second = await importMemory(to, path.join(root, 'out'));
    expect(second.files).toEqual([
      { file: 'MEMORY.md', status: 'unchanged' },
      { file: 'a.md', status: 'conflict', reason: 'differs from the file here; yours kept (compare them, then --force to take the imported one)' },
    ]);
    expect(fs.readFileSync(path.join(to, 'a.md'), 'utf8')).toContain('Mine.');
  });

  test('a source that does not exist: an InputError naming it, nothing created', async () => {
    const root = tempDir('memdir-transfer-api-');
    await expect(importMemory(path.join(root, 'mem'), path.join(root, 'nope.tar'))).rejects.toThrow(InputError);
    expect(snapshotTree(root)).toEqual({});
    expect(fs.existsSync(path.join(root, 'mem'))).toBe(false);
  });
});
