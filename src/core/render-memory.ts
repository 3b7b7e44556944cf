import { freshnessHeader } from './freshness.js';
import { withoutBom } from './topic-file.js';

const MAX_LINES = 200;
const MAX_BYTES = 4096;

/** A memory's text capped at 200 lines / 4 KB, with a note saying what was left out. */
export function capMemory(text: string, file: string): { text: string; truncated: boolean } {
  let lines = text.split('\n');
  let truncated = false;
  if (lines.length > MAX_LINES) {
    lines = lines.slice(0, MAX_LINES);
    truncated = true;
  }
  let out = lines.join('\n');
  if (Buffer.byteLength(out) > MAX_BYTES) {
    // Cut at a line break inside the byte budget (never inside a character).
    let cut = Buffer.from(out)
      .subarray(0, MAX_BYTES)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    const lastBreak = cut.lastIndexOf('\n');
    if (lastBreak > MAX_BYTES / 2) cut = cut.slice(0, lastBreak);
    out = cut;
    truncated = true;
  }
  if (truncated) out = `${out.trimEnd()}\n[… truncated at ${MAX_LINES} lines / 4 KB; read ${file} for the rest]`;
  return { text: out, truncated };
}

/** One recalled memory with its freshness header (docs/architecture.md#recall). */
export function renderMemory(file: string, content: string, mtimeMs: number, nowMs: number): string {
  return `${freshnessHeader(file, mtimeMs, nowMs)}\n${capMemory(withoutBom(content).trimEnd(), file).text}`;
}
