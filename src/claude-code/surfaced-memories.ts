/**
 * The memories Claude Code's own recall (its memory side query, 2.1.3xx) put in front of the model
 * in a session, read from the session's transcript. Claude Code records each such turn as an
 * `attachment` line, `{"type":"attachment","attachment":{"type":"relevant_memories","memories":
 * [{"path","content","mtimeMs","header","limit"}]}}`, `path` absolute. Only the transcript's tail is
 * read (the prompt hook runs on every prompt), and only what follows the last compaction: a
 * compaction drops those attachments from the model's context.
 */
import fs from 'node:fs';
import { transcriptFileProblem } from './transcript-file.js';

/** How much of a transcript's end the prompt hook reads. */
export const TRANSCRIPT_TAIL_BYTES = 256 * 1024;

const ATTACHMENT_MARK = '"relevant_memories"';
const BOUNDARY_MARK = '"compact_boundary"';

/** The tail of `file`, from its first whole line; '' when it cannot be read or is not a regular file. */
function readTail(file: string, maxBytes: number): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const stat = fs.fstatSync(fd);
    if (transcriptFileProblem(stat)) return '';
    const length = Math.min(stat.size, maxBytes);
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, stat.size - length);
    const text = buffer.subarray(0, read).toString('utf8');
    // A tail that starts mid-line drops that partial line.
    return length < stat.size ? text.slice(text.indexOf('\n') + 1) : text;
  } catch {
    return '';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * The absolute paths of the memories Claude Code surfaced in the transcript's tail since its last
 * compaction, in order. A transcript that is missing or unreadable, or lines that are not JSON,
 * give nothing: the prompt hook then decides as if Claude Code had surfaced nothing.
 */
export function memoriesClaudeCodeSurfaced(transcriptPath: string | undefined, maxBytes = TRANSCRIPT_TAIL_BYTES): string[] {
  if (!transcriptPath) return [];
  const tail = readTail(transcriptPath, maxBytes);
  // Most transcripts carry no such line: no parsing at all then.
  if (!tail.includes(ATTACHMENT_MARK)) return [];
  let surfaced: string[] = [];
  for (const line of tail.split('\n')) {
    const boundary = line.includes(BOUNDARY_MARK);
    if (!boundary && !line.includes(ATTACHMENT_MARK)) continue;
    let entry: { type?: unknown; subtype?: unknown; attachment?: { type?: unknown; memories?: unknown } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.type === 'system' && entry.subtype === 'compact_boundary') surfaced = [];
    else if (entry.type === 'attachment' && entry.attachment?.type === 'relevant_memories' && Array.isArray(entry.attachment.memories)) {
      for (const memory of entry.attachment.memories as { path?: unknown }[]) if (typeof memory?.path === 'string' && !surfaced.includes(memory.path)) surfaced.push(memory.path);
    }
  }
  return surfaced;
}
