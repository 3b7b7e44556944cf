import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '../helpers/run-cli.js';

/** The real-directory corpus is frozen: each SOURCES*.md lists folders, its SOURCES*.sha256 every byte of them. */
const root = path.join(repoRoot, 'test/fixtures/real');
const lists = () => fs.readdirSync(root).filter((f) => /^SOURCES(-\d+)?\.md$/.test(f));

function sources(): Array<{ dir: string; files: number }> {
  return lists().flatMap((list) =>
    fs
      .readFileSync(path.join(root, list), 'utf8')
      .split('\n')
      .flatMap((line) => {
        const m = line.match(/^\| `([^`]+)\/` \|(?:[^|]*\|){4} (\d+) \|/);
        return m ? [{ dir: m[1]!, files: Number(m[2]) }] : [];
      }),
  );
}

function checksums(): Map<string, string> {
  const lines = lists().flatMap((list) =>
    fs
      .readFileSync(path.join(root, list.replace(/\.md$/, '.sha256')), 'utf8')
      .trim()
      .split('\n'),
  );
  return new Map(lines.map((l) => [l.slice(66), l.slice(0, 64)]));
}

describe('real memory directories corpus', () => {
  test('the lists name at least 35 distinct directories and the checksums cover every file of each', () => {
    const listed = sources();
    expect(listed.length).toBeGreaterThanOrEqual(35);
    expect(new Set(listed.map((s) => s.dir)).size).toBe(listed.length);
    const sums = [...checksums().keys()];
    for (const { dir, files } of listed) {
      expect(
        sums.filter((f) => f.startsWith(`${dir}/`)),
        dir,
      ).toHaveLength(files);
      expect(sums, dir).toContain(`${dir}/MEMORY.md`);
    }
  });

  test('every folder present on disk matches its checksums byte for byte, with no file added', () => {
    const sums = checksums();
    for (const { dir } of sources().filter(({ dir }) => fs.existsSync(path.join(root, dir)))) {
      const onDisk = fs
        .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
      expect(onDisk.sort(), dir).toEqual([...sums.keys()].filter((f) => f.startsWith(`${dir}/`)).sort());
      for (const file of onDisk)
        expect(
          createHash('sha256')
            .update(fs.readFileSync(path.join(root, file)))
            .digest('hex'),
          file,
        ).toBe(sums.get(file));
    }
  });
});
