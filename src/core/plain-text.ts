/**
 * Text a person typed, without what only a terminal reads: pasted coloured output brings ANSI
 * escape sequences, and a stray NUL, BEL or DEL can ride along. Such characters in a memory would
 * break its index line or show up as garbage in the agent's context. Pure.
 */

// Whole sequences: CSI (ESC [ or 0x9B, parameters, one final byte), OSC (ESC ], ended by BEL or
// ESC \), and the short escapes (ESC, intermediates, one final byte: ESC ( B, ESC 7…).
const ESCAPE_SEQUENCE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]?/g;
// Every other control character but tab and line breaks, which are whitespace in a statement.
const CONTROL = /(?![\t\n\r])\p{Cc}/gu;

/** `text` without escape sequences (removed whole) and control characters other than tab, CR and LF. */
export function withoutControlCharacters(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}
