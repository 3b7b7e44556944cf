import { describe, expect, test } from 'vitest';
import { INDEX_MAX_BYTES } from '../../src/core/limits.js';
import { loadIndex } from '../../src/core/load-model.js';
import { LOAD_CASES } from '../helpers/load-cases.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `- [M${i}](m${i}.md) — hook ${i}`).join('\n');

describe('the load model: limits', () => {
  test('an index within limits is loaded whole, trimmed', () => {
    const r = loadIndex(`\n${lines(200)}\n\n`);
    expect(r).toMatchObject({ wasLineTruncated: false, wasByteTruncated: false, lineCount: 200, loadedLines: 200, cutAt: undefined, cutBy: undefined });
    expect(r.content).toBe(lines(200));
    expect(r.fileLines.slice(0, 2)).toEqual([2, 3]);
  });

  test('line 201 onwards is cut, and the warning names the line limit and the first line cut', () => {
    const r = loadIndex(lines(249));
    expect(r).toMatchObject({ wasLineTruncated: true, wasByteTruncated: false, lineCount: 249, loadedLines: 200, firstCutLine: 201, cutBy: 'lines' });
    expect(r.loaded.split('\n').at(-1)).toBe('- [M199](m199.md) — hook 199');
    expect(r.content.split('\n').at(-1)).toBe(
      '> WARNING: MEMORY.md is 249 lines (limit: 200). Only part of it was loaded: 49 of 249 lines were cut off, starting at line 201 ("- [M200](m200.md) — hook 200"). Keep index entries to one line under ~200 chars; move detail into topic files.',
    );
    expect(loadIndex(lines(249), '2.1.197').content.split('\n').at(-1)).toBe(
      '> WARNING: MEMORY.md is 249 lines (limit: 200). Only part of it was loaded. Keep index entries to one line under ~200 chars; move detail into topic files.',
    );
  });

  test('a long index is cut at the last newline before 25,000 characters', () => {
    const long = Array.from({ length: 150 }, (_, i) => `- [M${i}](m${i}.md) — ${'x'.repeat(200)}`).join('\n');
    const r = loadIndex(long);
    expect(r).toMatchObject({ wasLineTruncated: false, wasByteTruncated: true, cutBy: 'size' });
    expect(r.loaded.length).toBeLessThanOrEqual(INDEX_MAX_BYTES);
    expect(long.startsWith(r.loaded)).toBe(true);
    expect(long[r.loaded.length]).toBe('\n');
    expect(r.cutAt).toBe(r.loaded.length + 1);
    expect(r.content).toMatch(/MEMORY\.md is 32\.\dKB \(limit: 24\.4KB\) — index entries are too long/);
  });

  test('a single 200 KB line with no newline is cut at the limit, inside line 1', () => {
    const r = loadIndex('z'.repeat(200_000));
    expect(r.loaded).toBe('z'.repeat(INDEX_MAX_BYTES));
    expect(r).toMatchObject({ cutAt: INDEX_MAX_BYTES, firstCutLine: 1, loadedLines: 1 });
    expect(r.content).toContain(`everything after the first ${INDEX_MAX_BYTES} characters of line 1 was cut off`);
  });
});

describe('the load model: what is stripped, and the map back to file lines', () => {
  test('frontmatter and a comment do not count: 200 pointers after them all load', () => {
    const r = loadIndex(LOAD_CASES['frontmatter, a comment and 200 pointers']!);
    expect(r).toMatchObject({ lineCount: 200, wasLineTruncated: false, strippedFrontmatter: true, strippedComments: true });
    expect(r.fileLines[0]).toBe(6);
    expect(r.fileLines.at(-1)).toBe(205);
  });

  test('204 pointers after them: the cut is on file line 206', () => {
    const r = loadIndex(LOAD_CASES['frontmatter, a comment and 204 pointers']!);
    expect(r).toMatchObject({ lineCount: 204, loadedLines: 200, firstCutLine: 206 });
  });

  test('lines after a multi-line comment map to their own file lines, also with CRLF', () => {
    const text = '# Memory\r\n<!--\r\nnote\r\n-->\r\n- [A](a.md) — alpha\r\n<!-- x -->\r\n- [B](b.md) — beta\r\n';
    const r = loadIndex(text);
    expect(r.loaded).toBe('# Memory\n- [A](a.md) — alpha\n- [B](b.md) — beta');
    expect(r.fileLines).toEqual([1, 5, 7]);
  });

  test('a comment in a list item, a fence or never closed stays, as Claude Code keeps it', () => {
    for (const name of ['comment inside a list item', 'comment in a fence', 'comment never closed']) {
      expect(loadIndex(LOAD_CASES[name]!).loaded).toContain('<!--');
    }
  });

  test('2.1.197 keeps a BOM in front of frontmatter, so it loads the frontmatter; later releases strip it', () => {
    const text = LOAD_CASES['BOM then frontmatter']!;
    expect(loadIndex(text, '2.1.197').loaded.startsWith('---\nname: idx')).toBe(true);
    expect(loadIndex(text).loaded).toBe('# Memory\n- [A](a.md) — alpha');
  });
});
