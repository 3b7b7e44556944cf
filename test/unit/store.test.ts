import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { messages } from '../../src/core/messages.js';
import { commitChanges, recoverTransaction } from '../../src/store/atomic.js';
import { confinedPath } from '../../src/store/confine.js';
import { withDirLock } from '../../src/store/lock.js';
import { scanMemories } from '../../src/store/scan.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

describe('transactions', () => {
  test('all changes land together', () => {
    const dir = tempDir();
    writeTree(dir, { 'old.md': 'old', 'MEMORY.md': 'index v1\n' });
    commitChanges(dir, [
      { path: 'sub/new.md', content: 'new' },
      { path: 'MEMORY.md', content: 'index v2\n' },
      { path: 'old.md', delete: true },
    ]);
    expect(fs.readFileSync(path.join(dir, 'sub/new.md'), 'utf8')).toBe('new');
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe('index v2\n');
    expect(fs.existsSync(path.join(dir, 'old.md'))).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => f.includes('tmp'))).toEqual([]);
  });

  test('a crash before the journal leaves the old state once recovered', () => {
    const dir = tempDir();
    writeTree(dir, { 'MEMORY.md': 'index v1\n' });
    const before = snapshotTree(dir);
    expect(() =>
      commitChanges(
        dir,
        [
          { path: 'a.md', content: 'a' },
          { path: 'MEMORY.md', content: 'v2' },
        ],
        {
          afterStep: (step) => {
            if (step === 'temp MEMORY.md') throw new Error('crash');
          },
        },
      ),
    ).toThrow();
    recoverTransaction(dir);
    const after = snapshotTree(dir);
    delete after['.memdir/journal.json'];
    expect(Object.keys(after).filter((k) => !k.startsWith('.memdir'))).toEqual(Object.keys(before));
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe('index v1\n');
  });

  test('a crash after the journal is rolled forward', () => {
    const dir = tempDir();
    writeTree(dir, { 'MEMORY.md': 'index v1\n', 'gone.md': 'x' });
    expect(() =>
      commitChanges(
        dir,
        [
          { path: 'a.md', content: 'a' },
          { path: 'MEMORY.md', content: 'index v2\n' },
          { path: 'gone.md', delete: true },
        ],
        {
          afterStep: (step) => {
            if (step === 'apply a.md') throw new Error('crash');
          },
        },
      ),
    ).toThrow();
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe('index v1\n');
    recoverTransaction(dir);
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe('index v2\n');
    expect(fs.existsSync(path.join(dir, 'gone.md'))).toBe(false);
    expect(fs.existsSync(path.join(dir, '.memdir/journal.json'))).toBe(false);
  });

  test('paths that leave the directory are refused before anything is written', () => {
    const dir = tempDir();
    const outside = tempDir();
    fs.symlinkSync(outside, path.join(dir, 'link'));
    for (const bad of ['../x.md', '/etc/passwd', 'link/x.md']) {
      expect(() =>
        commitChanges(dir, [
          { path: 'ok.md', content: 'ok' },
          { path: bad, content: 'evil' },
        ]),
      ).toThrow(/outside|relative/);
    }
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'ok.md'))).toBe(false);
    expect(() => confinedPath(dir, 'fine/inside.md')).not.toThrow();
  });
});

describe('lock', () => {
  test('serializes writers in one process', async () => {
    const dir = tempDir();
    const order: string[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        withDirLock(dir, async () => {
          order.push(`start ${n}`);
          await new Promise((r) => setTimeout(r, 20));
          order.push(`end ${n}`);
        }),
      ),
    );
    for (let i = 0; i < order.length; i += 2) expect(order[i]!.replace('start', 'end')).toBe(order[i + 1]);
    expect(fs.existsSync(path.join(dir, '.memdir/lock'))).toBe(false);
  });

  test('a lock left by a dead process is broken', async () => {
    const dir = tempDir();
    writeTree(dir, { '.memdir/lock': JSON.stringify({ pid: 2 ** 22 + 12345, time: Date.now(), token: 'x' }) });
    await expect(withDirLock(dir, () => 'ran', { timeoutMs: 2000 })).resolves.toBe('ran');
  });

  test('a live lock makes others wait, then time out', async () => {
    const dir = tempDir();
    writeTree(dir, { '.memdir/lock': JSON.stringify({ pid: process.pid, time: Date.now(), token: 'x' }) });
    await expect(withDirLock(dir, () => 'ran', { timeoutMs: 200 })).rejects.toThrow(/locked by process/);
  });

  test('an old lock is stale even when its PID is alive', async () => {
    const dir = tempDir();
    writeTree(dir, { '.memdir/lock': JSON.stringify({ pid: process.pid, time: Date.now() - 120_000, token: 'x' }) });
    await expect(withDirLock(dir, () => 'ran', { timeoutMs: 1000 })).resolves.toBe('ran');
  });
});

describe('scan', () => {
  test('newest first, capped, skipping the index, state and binary files', () => {
    const dir = tempDir();
    const head = (n: number) => `---\nname: M${n}\ndescription: memory ${n}\ntype: project\n---\nbody\n`;
    writeTree(dir, {
      'MEMORY.md': '- [x](a.md)\n',
      '.memdir/state.md': 'state',
      'team/MEMORY.md': 'team index',
      'bin.md': Buffer.from([0x2d, 0x00, 0x01]),
      'notes.txt': 'not markdown',
    });
    for (let n = 0; n < 5; n++) {
      writeTree(dir, { [n === 4 ? 'team/m4.md' : `m${n}.md`]: head(n) });
      const t = new Date(Date.UTC(2026, 0, 1 + n));
      fs.utimesSync(path.join(dir, n === 4 ? 'team/m4.md' : `m${n}.md`), t, t);
    }
    const all = scanMemories(dir, { limit: 0 });
    expect(all.memories.map((m) => m.path)).toEqual(['team/m4.md', 'm3.md', 'm2.md', 'm1.md', 'm0.md']);
    expect(all.memories[0]).toMatchObject({ name: 'M4', description: 'memory 4', type: 'project' });
    expect(all.problems).toEqual([{ path: 'bin.md', message: messages.binaryFile() }]);
    expect(scanMemories(dir, { limit: 2 }).memories.map((m) => m.path)).toEqual(['team/m4.md', 'm3.md']);
  });

  test('reads only the first lines of each file', () => {
    const dir = tempDir();
    writeTree(dir, {
      'late.md': `${'filler\n'.repeat(40)}---\nname: hidden\n---\n`,
      'long.md': `---\nname: Long\ndescription: d\ntype: user\n---\n${'line\n'.repeat(100_000)}`,
    });
    const { memories } = scanMemories(dir);
    expect(memories.find((m) => m.path === 'late.md')!.name).toBeUndefined();
    expect(memories.find((m) => m.path === 'long.md')!.name).toBe('Long');
  });
});

test('the state folder memdir creates ignores itself in git', async () => {
  const dir = tempDir();
  await withDirLock(dir, () => {});
  expect(fs.readFileSync(path.join(dir, '.memdir/.gitignore'), 'utf8')).toBe('*\n');
});

describe('reading memory files', () => {
  test('binary and invalid UTF-8 are refused by name; a BOM is kept', async () => {
    const { readMemoryText } = await import('../../src/store/files.js');
    const dir = tempDir();
    writeTree(dir, { 'bin.md': Buffer.from([0x41, 0x00]), 'latin1.md': Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'bom.md': '\uFEFF---\nname: x\n---\n' });
    expect(() => readMemoryText(path.join(dir, 'bin.md'))).toThrow(`${path.join(dir, 'bin.md')}: binary file`);
    expect(() => readMemoryText(path.join(dir, 'latin1.md'))).toThrow('not valid UTF-8 text');
    expect(readMemoryText(path.join(dir, 'bom.md'))).toBe('\uFEFF---\nname: x\n---\n');
    expect(readMemoryText(path.join(dir, 'missing.md'))).toBeUndefined();
  });
});

test('temp files of a writer that died holding the lock are swept by the next lock holder', async () => {
  const dir = tempDir();
  writeTree(dir, {
    '.memdir/lock': JSON.stringify({ pid: 2 ** 22 + 12345, time: Date.now(), token: 'dead' }),
    '.memdir-tmp-0123456789ab-user_role.md': 'half-written',
    'sub/.memdir-tmp-0123456789ab-x.md': 'half-written',
  });
  await withDirLock(dir, () => {});
  expect(fs.readdirSync(dir).filter((f) => f.includes('tmp'))).toEqual([]);
  expect(fs.readdirSync(path.join(dir, 'sub'))).toEqual([]);
});
