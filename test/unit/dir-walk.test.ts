import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listMemoryFiles } from '../../src/store/dir-reader.js';
import { tempDir, writeTree } from '../helpers/temp.js';

// `**/*` with no extra ignores is listed by a readdir walk; any other listing goes through fast-glob.
// An ignore pattern that matches nothing forces fast-glob, so the two must agree entry for entry, in order.
function tree(files: string[], links: Array<[link: string, target: string]>): string {
  const dir = tempDir('memdir-walk-');
  writeTree(dir, Object.fromEntries(files.map((file) => [file, 'x\n'])));
  for (const [link, target] of links) fs.symlinkSync(target, path.join(dir, link));
  return dir;
}

describe('listing a memory directory without fast-glob', () => {
  it('gives what fast-glob gives: hidden names, node_modules, .memdir, nested directories, symlinks in and out', () => {
    const dir = tree(
      [
        'MEMORY.md',
        'b.md',
        'B.md',
        'a/deep/er/x.md',
        'a/y.txt',
        '.hidden/h.md',
        '.dot.md',
        'node_modules/m/n.md',
        'sub/node_modules/k.md',
        '.memdir/state.json',
        'team/MEMORY.md',
        'team/t.md',
        'z z/é.md',
      ],
      [
        ['inside.md', 'b.md'],
        ['folder', 'a'],
        ['outside.md', '/etc/hostname'],
        ['outside-folder', os.tmpdir()],
        ['dangling.md', 'gone.md'],
      ],
    );
    const walked = listMemoryFiles(dir, '**/*');
    const globbed = listMemoryFiles(dir, '**/*', ['no-such-folder/**']);
    expect(walked).toEqual(globbed);
    expect(walked.files).toContain('sub/node_modules/k.md');
    expect(walked.nested).toEqual(['team']);
  });

  it('gives nothing for a directory that does not exist', () => {
    const missing = path.join(tempDir('memdir-walk-'), 'missing');
    expect(listMemoryFiles(missing, '**/*')).toEqual(listMemoryFiles(missing, '**/*', ['no-such-folder/**']));
  });
});
