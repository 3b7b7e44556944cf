import { describe, expect, test } from 'vitest';
import { printable, printableLines } from '../../src/core/messages.js';

describe('printable text', () => {
  test('one line: control characters, line breaks, bidi overrides and lone surrogates escaped', () => {
    expect(printable('a\u001b[31mb\nc\td\u202ee\ud800')).toBe('a\\u001b[31mb\\nc\\td\\u202ee\\ud800');
  });

  test('several lines (a diff): line breaks and tabs kept, the rest escaped as on one line', () => {
    expect(printableLines('+ a\tb\u001b[0m\n- c\r\n\u2066d')).toBe('+ a\tb\\u001b[0m\n- c\\r\n\\u2066d');
    expect(printableLines('plain\ttext\n')).toBe('plain\ttext\n');
  });
});
