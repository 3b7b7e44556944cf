import { INDEX_MAX_BYTES, INDEX_MAX_LINES } from './limits.js';
import { INDEX_FILE } from './taxonomy.js';

/** What the agent loads of MEMORY.md (DESIGN §1.2). */

export interface TruncatedIndex {
  content: string;
  /** The part of the index the agent sees (`content` without the warning line). */
  loaded: string;
  lineCount: number;
  /** Size as the agent measures it: UTF-16 code units of the trimmed text (bytes for ASCII). */
  byteCount: number;
  wasLineTruncated: boolean;
  wasByteTruncated: boolean;
}

/**
 * The index exactly as Claude Code loads it: trimmed, cut to 200 lines, then
 * cut at the last newline before 25,000 characters, plus a warning line when
 * anything was cut. Claude Code measures with String#length, so memdir does too:
 * `memdir context` must show what the agent sees.
 */
export function truncateIndex(raw: string): TruncatedIndex {
  const trimmed = raw.trim();
  const lines = trimmed.split('\n');
  const lineCount = lines.length;
  const byteCount = trimmed.length;
  const wasLineTruncated = lineCount > INDEX_MAX_LINES;
  const wasByteTruncated = byteCount > INDEX_MAX_BYTES;
  if (!wasLineTruncated && !wasByteTruncated) {
    return { content: trimmed, loaded: trimmed, lineCount, byteCount, wasLineTruncated, wasByteTruncated };
  }
  let kept = wasLineTruncated ? lines.slice(0, INDEX_MAX_LINES).join('\n') : trimmed;
  if (kept.length > INDEX_MAX_BYTES) {
    const cut = kept.lastIndexOf('\n', INDEX_MAX_BYTES);
    kept = kept.slice(0, cut > 0 ? cut : INDEX_MAX_BYTES);
  }
  const content = `${kept}\n\n${truncationWarning(lineCount, byteCount, wasLineTruncated, wasByteTruncated)}`;
  return { content, loaded: kept, lineCount, byteCount, wasLineTruncated, wasByteTruncated };
}

function truncationWarning(lineCount: number, byteCount: number, overLines: boolean, overBytes: boolean): string {
  const limits = [
    overLines ? `${lineCount} lines (limit ${INDEX_MAX_LINES})` : '',
    overBytes ? `${byteCount.toLocaleString('en-US')} bytes (limit ${INDEX_MAX_BYTES.toLocaleString('en-US')})` : '',
  ].filter(Boolean);
  return (
    `> WARNING: ${INDEX_FILE} is ${limits.join(' and ')}, so only its beginning was loaded. ` +
    'Keep one line per entry, under ~200 characters, and move detail into topic files (`memdir refactor` does this).'
  );
}
