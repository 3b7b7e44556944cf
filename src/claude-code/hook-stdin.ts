/**
 * The first JSON object of a hook's stdin, read without waiting: the part of hook input that
 * imports nothing of ours, so the guard's outside-write path (src/fast/guard.ts) reads its input
 * without the rest of the hook runtime (hook-io.ts), which reads the same way and hands over.
 */
import fs from 'node:fs';

/** Hook input beyond this is not Claude Code's (a pasted prompt is far smaller). */
export const HOOK_INPUT_MAX_BYTES = 8 * 1024 * 1024;

/** A `\uD800`–`\uDFFF` escape: the one way valid UTF-8 JSON can hold a lone surrogate. */
export const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** What `FirstObjectScanner.feed` returns when the input does not start with `{`. */
export const NOT_AN_OBJECT = -1;

/**
 * Finds where the first JSON object in a byte stream ends, chunk by chunk,
 * without parsing it: brackets are counted outside strings. Bytes of
 * multi-byte UTF-8 characters are all >= 0x80, so they never look like JSON
 * punctuation.
 */
export class FirstObjectScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;
  private offset = 0;

  /** The length of the document once it is complete, else undefined; NOT_AN_OBJECT when the input is not an object. */
  feed(chunk: Buffer): number | undefined {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (!this.started) {
        if (WHITESPACE.has(byte)) continue;
        if (byte !== 0x7b) return NOT_AN_OBJECT;
        this.started = true;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === 0x5c) this.escaped = true;
        else if (byte === 0x22) this.inString = false;
      } else if (byte === 0x22) this.inString = true;
      else if (OPEN.has(byte)) this.depth++;
      else if (CLOSE.has(byte) && --this.depth === 0) return this.offset + i + 1;
    }
    this.offset += chunk.length;
    return undefined;
  }
}

/** Node warns on `process.binding` only under pending deprecation: then the socket is the stream's. */
function pendingDeprecation(): boolean {
  return process.execArgv.includes('--pending-deprecation') || /(?:^|\s)--pending-deprecation\b/.test(process.env.NODE_OPTIONS ?? '') || process.env.NODE_PENDING_DEPRECATION === '1';
}

/**
 * Make a socket on stdin non-blocking as libuv does for process.stdin (a pipe handle opened on it),
 * without Node's stream modules, whose loading is a large share of a hook's start (bench `guard`). Node puts
 * stdin's blocking mode back as it was when the process exits. False: the stream reads it.
 */
function socketWithoutWaiting(): boolean {
  if (pendingDeprecation()) return false;
  try {
    type PipeHandle = { open(fd: number): number; close(): void };
    const binding = (process as unknown as { binding(name: string): { Pipe: new (type: number) => PipeHandle; constants: { SOCKET: number } } }).binding('pipe_wrap');
    const handle = new binding.Pipe(binding.constants.SOCKET);
    const error = handle.open(0);
    // Never started, so never read from; libuv does not close a standard descriptor with its handle.
    handle.close();
    return error === 0;
  } catch {
    return false;
  }
}

/**
 * A descriptor to read stdin from at once, without process.stdin, whose stream modules weigh on
 * every hook's start (bench `hooks`): a regular file or /dev/null (no input at all) never waits; a pipe is opened again
 * non-blocking through /proc (its own file description: the writer's side is untouched), so a
 * writer that keeps it open without writing gives EAGAIN, not a wait. A socket (Node's child
 * stdio, as Claude Code runs hooks) is made non-blocking when `sockets` is set; it, a terminal or
 * anything else otherwise goes through the timed stream. Undefined: use the stream.
 */
export function stdinWithoutWaiting(options: { sockets?: boolean } = {}): number | undefined {
  try {
    const stat = fs.fstatSync(0);
    if (stat.isFile()) return 0;
    if (stat.isFIFO()) return fs.openSync('/proc/self/fd/0', fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    if (stat.isSocket()) return options.sockets && socketWithoutWaiting() ? 0 : undefined;
    return stat.isCharacterDevice() && stat.rdev === fs.statSync('/dev/null').rdev ? 0 : undefined;
  } catch {
    return undefined;
  }
}

export const isWouldBlock = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EAGAIN';

/** `bytes` parsed, when they are exactly one JSON object and white space; else undefined (the scan decides). */
function wholeObject(bytes: Buffer): { end: number; parsed: ParsedPrefix } | undefined {
  let end = bytes.length;
  while (end > 0 && WHITESPACE.has(bytes[end - 1]!)) end--;
  if (end === 0 || bytes[end - 1] !== 0x7d) return undefined;
  let start = 0;
  while (start < end && WHITESPACE.has(bytes[start]!)) start++;
  if (bytes[start] !== 0x7b) return undefined;
  const text = bytes.toString('utf8', start, end);
  try {
    return { end, parsed: { text, value: JSON.parse(text) as unknown } };
  } catch {
    return undefined;
  }
}

/** The first object as read, when it was parsed already: its text (decoded as UTF-8, valid or not) and value. */
export interface ParsedPrefix {
  text: string;
  value: unknown;
}

/** What stdin held when read at once: `end` is the length of the first object when it is complete there. */
export interface StdinPrefix {
  bytes: Buffer;
  /** Where the first object ends; NOT_AN_OBJECT; or undefined (not complete in what was read). */
  end: number | undefined;
  /** The input ended (nothing more will come). */
  eof: boolean;
  parsed?: ParsedPrefix | undefined;
}

/**
 * Stdin read synchronously until its first object is complete, the input ends, a read would block,
 * or more than the limit arrived; undefined when stdin cannot be read without waiting (the stream's
 * to read) or a read fails. Nothing is lost: the bytes read are what the hook runtime goes on from.
 */
export function readStdinPrefix(): StdinPrefix | undefined {
  const fd = stdinWithoutWaiting({ sockets: true });
  if (fd === undefined) return undefined;
  const scanner = new FirstObjectScanner();
  const chunks: Buffer[] = [];
  let size = 0;
  const buffer = Buffer.alloc(64 * 1024);
  const done = (end: number | undefined, eof: boolean): StdinPrefix => ({ bytes: Buffer.concat(chunks, size), end, eof });
  try {
    for (;;) {
      let length: number;
      try {
        length = fs.readSync(fd, buffer);
      } catch (error) {
        if (isWouldBlock(error)) return done(undefined, false);
        // Bytes may have been read: they are handed over with the failure left to the stream.
        return size === 0 ? undefined : done(undefined, false);
      }
      if (length === 0) return done(undefined, true);
      const chunk = Buffer.from(buffer.subarray(0, length));
      chunks.push(chunk);
      size += length;
      // The usual input is one object, whole in what was read: JSON.parse says so faster than the scan byte by byte.
      const whole = size <= HOOK_INPUT_MAX_BYTES && chunks.length === 1 ? wholeObject(chunk) : undefined;
      if (whole !== undefined) return { ...done(whole.end, false), parsed: whole.parsed };
      const end = scanner.feed(chunk);
      if (end !== undefined || size > HOOK_INPUT_MAX_BYTES) return done(end, false);
    }
  } finally {
    if (fd !== 0) fs.closeSync(fd);
  }
}
