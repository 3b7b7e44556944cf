import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseMemoryIndex, pointers, removePointer, renderMemoryIndex, upsertPointer } from '../../src/core/memory-index.js';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';

describe('parse', () => {
  const text = [
    '# Memory',
    '',
    '## Feedback',
    '- [Terse replies](feedback_terse.md) — no recap at the end',
    '* [Linear](reference_linear.md): where bugs live',
    '- [No hook](user_role.md)',
    '  - nested detail under a pointer',
    'A paragraph of prose.',
    '| a | b |',
    '```',
    '- [not a pointer](x.md) inside code',
    '```',
    '> quoted',
    '',
  ].join('\n');
  const index = parseMemoryIndex(text);

  test('classifies every line with its number', () => {
    expect(index.lines.map((l) => `${l.line}:${l.kind}`)).toEqual([
      '1:heading',
      '2:blank',
      '3:heading',
      '4:pointer',
      '5:pointer',
      '6:pointer',
      '7:list',
      '8:paragraph',
      '9:table',
      '10:code',
      '11:code',
      '12:code',
      '13:quote',
    ]);
  });
  test('reads title, target and hook', () => {
    expect(pointers(index).map(({ title, target, hook }) => ({ title, target, hook }))).toEqual([
      { title: 'Terse replies', target: 'feedback_terse.md', hook: 'no recap at the end' },
      { title: 'Linear', target: 'reference_linear.md', hook: 'where bugs live' },
      { title: 'No hook', target: 'user_role.md', hook: '' },
    ]);
  });
  test('renders back byte for byte', () => expect(renderMemoryIndex(index)).toBe(text));
  test('CRLF, BOM and a missing final newline survive', () => {
    for (const t of ['\uFEFF- [A](a.md) — x\r\n- [B](b.md)\r\n', '- [A](a.md)', '']) expect(renderMemoryIndex(parseMemoryIndex(t))).toBe(t);
  });
  test.each(fixtureMemoryDirs().map((d) => [path.basename(path.dirname(path.dirname(d))), d]))('real index of %s renders back', (_n, dir) => {
    const text = fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(renderMemoryIndex(parseMemoryIndex(text))).toBe(text);
  });
});

describe('edit', () => {
  test('upsert appends after the last pointer and replaces in place', () => {
    let index = parseMemoryIndex('# Memory\n- [A](a.md) — one\n\nNotes\n');
    index = upsertPointer(index, { title: 'B', target: 'b.md', hook: 'two' });
    expect(renderMemoryIndex(index)).toBe('# Memory\n- [A](a.md) — one\n- [B](b.md) — two\n\nNotes\n');
    index = upsertPointer(index, { title: 'A2', target: './a.md', hook: 'changed' });
    expect(renderMemoryIndex(index)).toBe('# Memory\n- [A2](./a.md) — changed\n- [B](b.md) — two\n\nNotes\n');
  });
  test('upsert into an empty index', () => {
    expect(renderMemoryIndex(upsertPointer(parseMemoryIndex(''), { title: 'A', target: 'a.md', hook: 'x' }))).toBe('- [A](a.md) — x\n');
  });
  test('remove drops every pointer to the file', () => {
    const index = removePointer(parseMemoryIndex('- [A](a.md)\n- [B](b.md)\n- [A again](./a.md)\n'), 'a.md');
    expect(renderMemoryIndex(index)).toBe('- [B](b.md)\n');
  });
});
