/**
 * Streaming transcript reader: splits a file or stream into lines chunk by chunk and feeds
 * them to the pure TranscriptParser, so a 100 MB transcript is never held whole. A line
 * longer than `maxLineBytes` is skipped as it streams past (counted as malformed).
 */
import fs from 'node:fs';
import { InputError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { transcriptFileProblem } from './transcript-file.js';
import { isSubagentTranscript, TranscriptParser, type ParseOptions, type Transcript } from './transcript.js';

/**
 * Longest line kept: real lines run to a few MB (pasted images, long tool results); anything
 * larger is not a message worth holding and would dominate memory.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Most bytes of one transcript read (1 GB): real ones run to tens of MB, a few hundred with pasted
 * images. Past it the input is not a transcript (a device, a runaway pipe) and is refused.
 */
export const MAX_TRANSCRIPT_BYTES = 1024 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface ReadOptions extends ParseOptions {
  maxLineBytes?: number;
  maxBytes?: number;
  /** How the input is named in an error (`-` for stdin). */
  label?: string;
}

/** Splits a byte stream into lines without copying the ones that sit inside one chunk. */
class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The current line is over the limit: drop bytes until its newline. */
  private skipping = false;
  endsWithNewline = true;

  constructor(
    private readonly parser: TranscriptParser,
    private readonly maxLineBytes: number,
  ) {}

  chunk(chunk: Buffer): void {
    if (chunk.length === 0) return;
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE, start); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      if (this.pendingBytes === 0 && !this.skipping && newline - start <= this.maxLineBytes) {
        // the common case, a whole line inside this chunk: decode it in place
        this.parser.line(chunk.toString('utf8', start, lineEnd(chunk, start, newline)));
      } else {
        this.take(chunk, start, newline);
        this.endLine();
      }
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk, start, chunk.length);
    this.endsWithNewline = chunk[chunk.length - 1] === NEWLINE;
  }

  finish(): void {
    if (this.skipping || this.pendingBytes > 0) this.endLine();
  }

  private take(chunk: Buffer, start: number, end: number): void {
    if (this.skipping) return;
    if (this.pendingBytes + (end - start) > this.maxLineBytes) {
      this.skipping = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    if (end > start) {
      this.pending.push(chunk.subarray(start, end));
      this.pendingBytes += end - start;
    }
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      this.parser.tooLong();
      return;
    }
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.parser.line(bytes.toString('utf8', 0, lineEnd(bytes, 0, bytes.length)));
  }
}

/** End of the line's text: before a trailing carriage return (CRLF files). */
function lineEnd(bytes: Buffer, start: number, end: number): number {
  return end > start && bytes[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
}

/** Read a transcript from a readable byte stream (a file, stdin). */
export async function readTranscriptStream(stream: AsyncIterable<Buffer | string>, options: ReadOptions = {}): Promise<Transcript> {
  const parser = new TranscriptParser(options);
  const splitter = new LineSplitter(parser, options.maxLineBytes ?? MAX_LINE_BYTES);
  const maxBytes = options.maxBytes ?? MAX_TRANSCRIPT_BYTES;
  let read = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    read += bytes.length;
    if (read > maxBytes) throw new InputError(options.label ?? '-', messages.transcriptTooLarge(maxBytes));
    splitter.chunk(bytes);
  }
  splitter.finish();
  return parser.finish(splitter.endsWithNewline);
}

/** Read a transcript file; subagent files (`agent-*.jsonl`, `subagents/`) yield no main-conversation messages. */
export function readTranscript(file: string, options: ReadOptions = {}): Promise<Transcript> {
  // Opened without blocking, then checked: opening a FIFO to read would wait for a writer.
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const problem = transcriptFileProblem(fs.fstatSync(fd));
  if (problem) {
    fs.closeSync(fd);
    throw new InputError(file, problem);
  }
  const stream = fs.createReadStream('', { fd, highWaterMark: 1024 * 1024 });
  return readTranscriptStream(stream, { subagent: isSubagentTranscript(file), label: file, ...options });
}

/**
 * A transcript from a file or a stream, with the file's size (a cursor's "nothing new" check; 0 for a
 * stream) and how to name it (`-` for a stream). A path that is not a regular file, or cannot be read,
 * is an input error naming it.
 */
export async function loadTranscript(source: string | AsyncIterable<Buffer | string>, options: ReadOptions = {}): Promise<{ transcript: Transcript; bytes: number; label: string }> {
  if (typeof source !== 'string') return { transcript: await readTranscriptStream(source, options), bytes: 0, label: '-' };
  let bytes: number;
  try {
    const stat = fs.statSync(source);
    const problem = transcriptFileProblem(stat);
    if (problem) throw new InputError(source, problem);
    bytes = stat.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(source, messages.unreadable(source, (error as NodeJS.ErrnoException).code ?? String(error)).replace(`${source}: `, ''));
  }
  return { transcript: await readTranscript(source, options), bytes, label: source };
}

/** A transcript of which not one line could be read is the wrong file, not a transcript with noise. */
export function checkReadable(label: string, transcript: Transcript): void {
  const { lines, malformed } = transcript.counts;
  if (lines === 0 || malformed < lines) return;
  const reasons = [...new Set(transcript.malformedLines.map((m) => m.reason))].join(', ');
  throw new InputError(label, messages.notATranscript(lines, reasons));
}
