import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { describe, expect, test } from 'vitest';
import { headFields, memoryFields, newTopicFile, parseTopicFile, serializeTopicFile, withFields } from '../../src/core/topic-file.js';
import { fixtureMemoryFiles } from '../helpers/fixtures.js';

describe('round trip over real memory files', () => {
  const files = fixtureMemoryFiles();
  test('the fixtures are there', () => expect(files.length).toBeGreaterThan(50));
  test.each(files.map((f) => [path.relative(path.dirname(path.dirname(path.dirname(f))), f), f]))('%s', (_name, file) => {
    const text = fs.readFileSync(file, 'utf8');
    expect(serializeTopicFile(parseTopicFile(text).file)).toBe(text);
  });
});

describe('variants real files use', () => {
  const cases: Record<string, string> = {
    plain: '---\nname: Terse\ndescription: No recap\ntype: feedback\n---\n\nBody\n',
    crlf: '---\r\nname: Terse\r\ndescription: No recap\r\ntype: feedback\r\n---\r\n\r\nBody\r\n',
    bom: '\uFEFF---\nname: Terse\ndescription: No recap\ntype: feedback\n---\nBody',
    quoted: '---\nname: "Terse: replies"\ndescription: \'No recap\'\ntype: "feedback"\n---\nBody\n',
    nested: '---\nname: Terse\ndescription: No recap\nmetadata:\n  type: feedback\n  originSessionId: 4f1c\n---\nBody\n',
    extraKeys: '---\nname: Terse\nmodified: 2026-03-05\noriginSessionId: abc\ndescription: No recap\ntype: feedback\n---\nBody\n',
    none: '# Just notes\n\nNo frontmatter here.\n',
    empty: '',
    emptyFrontmatter: '---\n---\nBody\n',
  };
  test.each(Object.entries(cases))('%s survives parse → serialize byte for byte', (_name, text) => {
    const { file, problems } = parseTopicFile(text);
    expect(problems).toEqual([]);
    expect(serializeTopicFile(file)).toBe(text);
  });

  test('fields are read from top level and from nested metadata', () => {
    expect(memoryFields(parseTopicFile(cases.quoted!).file.frontmatter!.data)).toEqual({
      name: 'Terse: replies',
      description: 'No recap',
      type: 'feedback',
    });
    expect(memoryFields(parseTopicFile(cases.nested!).file.frontmatter!.data).type).toBe('feedback');
  });

  test('CRLF and BOM are detected', () => {
    expect(parseTopicFile(cases.crlf!).file.eol).toBe('\r\n');
    expect(parseTopicFile(cases.bom!).file.bom).toBe('\uFEFF');
  });
});

describe('problems are values with line numbers', () => {
  test('invalid YAML names the line', () => {
    const { problems } = parseTopicFile('---\nname: ok\ndescription: [unclosed\ntype: user\n---\nbody\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/not valid YAML/);
    expect(problems[0]!.line).toBeGreaterThanOrEqual(3);
  });
  test('an unclosed block is reported at line 1', () => {
    expect(parseTopicFile('---\nname: x\n').problems).toEqual([{ line: 1, message: expect.stringMatching(/never closed/) }]);
  });
  test('a scalar frontmatter is not a mapping', () => {
    expect(parseTopicFile('---\njust text\n---\n').problems[0]!.message).toMatch(/mapping/);
  });
});

describe('editing keeps every byte memdir does not own', () => {
  test('unknown keys, comments and order survive a field update', () => {
    const text = '---\r\nname: Old\r\n# a comment\r\noriginSessionId: abc\r\ndescription: >\r\n  folded\r\n  text\r\ntype: user\r\n---\r\nBody\r\n';
    const updated = serializeTopicFile(withFields(parseTopicFile(text).file, { name: 'New', description: 'Fresh: with colon' }));
    expect(updated).toBe('---\r\nname: New\r\n# a comment\r\noriginSessionId: abc\r\ndescription: "Fresh: with colon"\r\ntype: user\r\n---\r\nBody\r\n');
  });
  test('a missing key is appended inside the block', () => {
    const out = serializeTopicFile(withFields(parseTopicFile('---\nname: A\n---\nB\n').file, { type: 'project' }));
    expect(out).toBe('---\nname: A\ntype: project\n---\nB\n');
  });
  test('a new file has the canonical layout', () => {
    const text = serializeTopicFile(newTopicFile({ name: 'Merge freeze', description: 'No merges until 2026-03-05', type: 'project' }, 'Body'));
    expect(text).toBe('---\nname: Merge freeze\ndescription: No merges until 2026-03-05\ntype: project\n---\n\nBody\n');
    expect(memoryFields(parseTopicFile(text).file.frontmatter!.data)).toEqual({
      name: 'Merge freeze',
      description: 'No merges until 2026-03-05',
      type: 'project',
    });
  });
  test('values YAML would misread are quoted', () => {
    for (const value of ['yes', '2026-03-05', '- dash', 'a: b', '#hash', 'trailing ', '[x]']) {
      const text = serializeTopicFile(withFields(parseTopicFile('').file, { name: value }));
      expect(parseTopicFile(text).file.frontmatter!.data.name).toBe(value);
    }
  });
});

describe('the simple-frontmatter fast path agrees with YAML', () => {
  const full = (text: string) => {
    const raw = /^\uFEFF?---\r?\n([\s\S]*?)^---/m.exec(text)?.[1];
    if (raw === undefined) return {};
    try {
      const data = matter(`---\n${raw.replace(/\r\n/g, '\n')}---\n`, {}).data;
      return memoryFields(data);
    } catch {
      return memoryFields(parseTopicFile(text).file.frontmatter?.data ?? {});
    }
  };
  test.each(fixtureMemoryFiles().map((f) => [path.basename(f), f]))('%s', (_name, file) => {
    const text = fs.readFileSync(file, 'utf8');
    expect(headFields(text)).toEqual(full(text));
  });
  test.each([
    '---\nname: A\ndescription: plain words, with commas\ntype: user\n---\n',
    '---\r\nname: A\r\ntype: user\r\n---\r\n',
    '---\nname: "quoted: value"\ntype: user\n---\n',
    '---\nname: yes\n---\n',
    '---\nname: 2026-03-05\n---\n',
    '---\nname: 1.0\n---\n',
    '---\nname: a # comment\n---\n',
    '---\nname: a\nname: b\n---\n',
    '---\nmetadata:\n  type: user\n---\n',
    '---\nname: A\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: 1b2c-3d\ndescription: d\n---\n',
    '---\nmetadata:\n  type: user\n\n  node_type: memory\n---\n',
    '---\nmetadata:\nname: A\n---\n',
    '---\nmetadata:\n---\n',
    '---\nmetadata:\n  type: user\n    deeper: x\n---\n',
    '---\nmetadata:\n    type: user\n  name: x\n---\n',
    '---\nmetadata:\n  inner:\n    type: user\n---\n',
    '---\nmetadata:\n  modified: 2026-01-01\n---\n',
    '---\nmetadata:\n  type: user\n  type: project\n---\n',
    '---\nmetadata:\n\ttype: user\n---\n',
    '---\nmetadata:\n  - user\n---\n',
    '---\ndescription: >\n  folded\n---\n',
    '---\nname: -dash\n---\n',
    '---\nname: [a]\n---\n',
    '---\nname: a\n',
    'no frontmatter',
  ])('%j', (text) => expect(headFields(text)).toEqual(full(text)));

  // The whole mapping, not only the three fields: nested `metadata:` blocks take the fast path too.
  const yamlData = (text: string) => {
    const raw = /^\uFEFF?---\r?\n((?:.*\r?\n)*?)---\r?$/m.exec(text);
    try {
      return raw === null || raw.index !== 0 ? undefined : matter(`---\n${raw[1]!.replace(/\r\n/g, '\n')}---\n`, {}).data;
    } catch {
      return undefined; // not YAML: the lenient reader's business, compared above
    }
  };
  test.each([
    '---\nname: A\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: 1b2c-3d\ndescription: d\n---\n',
    '---\nmetadata:\n  type: user\n\n  node_type: memory\n---\n',
    '---\nmetadata:\nname: A\n---\n',
    '---\nmetadata:\n  inner:\n    type: user\n---\n',
    '---\nmetadata:\n  modified: 2026-01-01\n---\n',
    '---\nmetadata:\n  - user\n---\n',
  ])('whole mapping of %j', (text) => expect(parseTopicFile(text).file.frontmatter?.data).toEqual(yamlData(text)));
  test('every fixture frontmatter YAML reads is read to the same mapping', () => {
    let compared = 0;
    const real = path.join(import.meta.dirname, '../fixtures/real');
    const realFiles = fs.readdirSync(real, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
    for (const file of [...fixtureMemoryFiles(), ...realFiles.map((f) => path.join(real, f))]) {
      const text = fs.readFileSync(file, 'utf8');
      const expected = yamlData(text);
      if (expected === undefined) continue;
      expect(parseTopicFile(text).file.frontmatter?.data ?? {}, file).toEqual(expected);
      compared++;
    }
    expect(compared).toBeGreaterThan(300);
  });
});

describe('lenient reading of what agents really write', () => {
  test('an unquoted ": " in a value is read as Claude Code reads it, and still reported', () => {
    const { file, problems } = parseTopicFile('---\nname: Cover letter — rules\ndescription: Standards: NYC, 1 page\ntype: feedback\n---\nBody\n');
    expect(memoryFields(file.frontmatter!.data)).toEqual({ name: 'Cover letter — rules', description: 'Standards: NYC, 1 page', type: 'feedback' });
    expect(problems).toEqual([{ line: 3, message: expect.stringMatching(/not valid YAML/), lenient: true }]);
  });
});
