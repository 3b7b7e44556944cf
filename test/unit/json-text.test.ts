import { expect, test } from 'vitest';
import { appendItem, appendMember, jsonStyle, memberOf, parseJsonText, removeElement } from '../../src/hooks/json-text.js';

/** Append, check the result parses to what JSON would say, remove again: the same bytes. */
function appendThenRemove(text: string, at: (string | number)[], value: unknown, key?: string) {
  const style = jsonStyle(text);
  const find = (source: string) => at.reduce((node, step) => (typeof step === 'number' ? (node as any).items[step] : memberOf(node, step)!.value), parseJsonText(source));
  const added = key === undefined ? appendItem(text, find(text), value, style) : appendMember(text, find(text), key, value, style);
  const container = find(added) as any;
  const count = container.kind === 'object' ? container.members.length : container.items.length;
  return { added, removed: removeElement(added, container, count - 1) };
}

test.each([
  ['an object on its own lines', '{\n  "a": 1\n}\n', [], { x: [1] }, 'b', '{\n  "a": 1,\n  "b": {\n    "x": [\n      1\n    ]\n  }\n}\n'],
  ['an object on one line', '{"a": 1}', [], true, 'b', '{"a": 1, "b": true}'],
  ['an empty object, tab-indented file', '{\n\t"o": {}\n}', ['o'], 2, 'k', '{\n\t"o": {\n\t\t"k": 2\n\t}\n}'],
  [
    'an array of objects, CRLF',
    '{\r\n   "l": [\r\n      {"n": 1}\r\n   ]\r\n}\r\n',
    ['l'],
    { n: 2 },
    undefined,
    '{\r\n   "l": [\r\n      {"n": 1},\r\n      {\r\n         "n": 2\r\n      }\r\n   ]\r\n}\r\n',
  ],
  ['keys with escapes and strings with brackets', '{"a\\"]": "}{", "b": [ "[" ]}', ['b'], 'x', undefined, '{"a\\"]": "}{", "b": [ "[", "x" ]}'],
])('append to %s, then remove: byte for byte', (_name, text, at, value, key, expected) => {
  const { added, removed } = appendThenRemove(text, at, value, key);
  expect(added).toBe(expected);
  JSON.parse(added);
  expect(removed).toBe(text);
});

test('removing a middle element takes its separator with it', () => {
  const text = '[\n  1,\n  2,\n  3\n]';
  expect(removeElement(text, parseJsonText(text), 1)).toBe('[\n  1,\n  3\n]');
  expect(removeElement(text, parseJsonText(text), 0)).toBe('[\n  2,\n  3\n]');
});
