import { expect, test } from 'vitest';
import { shellWord } from '../../src/core/shell-word.js';

test('a plain path stays as it is; anything else is one single-quoted word', () => {
  expect(shellWord('/home/a/.claude/projects/-home-a-app/memory')).toBe('/home/a/.claude/projects/-home-a-app/memory');
  expect(shellWord("/tmp/Bob's notes/memory")).toBe(`'/tmp/Bob'\\''s notes/memory'`);
  expect(shellWord('$HOME/x')).toBe(`'$HOME/x'`);
});
