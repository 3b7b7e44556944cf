import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { InputError, IoError } from '../core/errors.js';
import { messages } from '../core/messages.js';

export type MemoryEncoding = 'UTF-8' | 'UTF-16LE' | 'UTF-16BE';

/**
 * What the bytes of a memory file say: text (a byte-order mark is kept as
 * U+FEFF, so UTF-8 text written back gives the same bytes), or the reason
 * memdir leaves the file alone — it is then never rewritten, merged, split
 * or dropped by any command.
 */
export type Decoding = { ok: true; text: string; encoding: MemoryEncoding } | { ok: false; problem: string };

/** A memory file as read: its decoding, whether all of it was read, and its stat. */
export type MemoryFile = Decoding & { complete: boolean; size: number; mtimeMs: number };

export interface ReadOptions {
  /** A larger file is left alone, or with `prefix` read only up to this size. */
  maxBytes?: number;
  prefix?: boolean;
  /** The file's size and mtime, when the caller stat'ed it a moment ago (a walk over many files): not asked again. */
  stat?: { size: number; mtimeMs: number };
}

const UTF16_BOMS: Array<[MemoryEncoding, number, number]> = [
  ['UTF-16LE', 0xff, 0xfe],
  ['UTF-16BE', 0xfe, 0xff],
];

/** The UTF-16 encoding a byte-order mark at the start announces, if any. */
export function utf16Bom(bytes: Buffer): MemoryEncoding | undefined {
  return UTF16_BOMS.find(([, first, second]) => bytes[0] === first && bytes[1] === second)?.[0];
}

/** `bytes` without a UTF-8 sequence cut off at its end (a prefix read stops anywhere). */
function wholeUtf8Sequences(bytes: Buffer): Buffer {
  let lead = bytes.length - 1;
  while (lead > 0 && bytes.length - lead < 4 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  if (lead < 0) return bytes;
  const byte = bytes[lead]!;
  const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return length > bytes.length - lead ? bytes.subarray(0, lead) : bytes;
}

/** The first byte that is not UTF-8, with its line, for a message the user can act on. */
function invalidUtf8Problem(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  let offset = 0;
  let from = 0;
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) {
    offset += Buffer.byteLength(text.slice(from, at));
    from = at;
    // A real U+FFFD in the file is three valid bytes; a decoding error is not.
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) {
      return messages.notUtf8({ byte: bytes[offset]!, line: text.slice(0, at).split('\n').length });
    }
  }
  return messages.notUtf8();
}

function decodeUtf16(bytes: Buffer, encoding: MemoryEncoding, complete: boolean): Decoding {
  let usable = complete ? bytes : bytes.subarray(0, bytes.length - (bytes.length % 2));
  if (!complete && usable.length >= 2) {
    const last = encoding === 'UTF-16LE' ? usable.readUInt16LE(usable.length - 2) : usable.readUInt16BE(usable.length - 2);
    if (last >= 0xd800 && last <= 0xdbff) usable = usable.subarray(0, usable.length - 2);
  }
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(usable);
  } catch {
    return { ok: false, problem: messages.notUtf16(encoding) };
  }
  if (text.includes('\0')) return { ok: false, problem: messages.binaryFile() };
  return { ok: true, text, encoding };
}

/**
 * The one rule for turning a memory file's bytes into text: UTF-8 (with or
 * without BOM), or UTF-16 with a BOM. Anything else — invalid UTF-8 such as
 * Latin-1, NUL bytes, UTF-16 without BOM — is not decoded. `complete: false`
 * means `bytes` is a prefix that may end inside a character.
 */
export function decodeMemoryBytes(bytes: Buffer, complete = true): Decoding {
  const utf16 = utf16Bom(bytes);
  if (utf16) return decodeUtf16(bytes, utf16, complete);
  const usable = complete ? bytes : wholeUtf8Sequences(bytes);
  if (usable.includes(0)) return { ok: false, problem: messages.binaryFile() };
  // A native validity check, then a plain decode: faster than a fatal TextDecoder on thousands of files.
  if (!isUtf8(usable)) return { ok: false, problem: invalidUtf8Problem(usable) };
  return { ok: true, text: usable.toString('utf8'), encoding: 'UTF-8' };
}

/** The first `length` bytes of a file, decoded as a prefix. */
function readPrefix(file: string, length: number): Decoding {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const read = fs.readSync(fd, buffer, filled, length - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return decodeMemoryBytes(buffer.subarray(0, filled), false);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Read one memory file by the one rule (`decodeMemoryBytes`); every command
 * reads memory files through here. Missing → undefined. Over `maxBytes` the
 * file is left alone without reading it, or with `prefix` only its first
 * `maxBytes` are decoded.
 */
export function readMemoryFile(file: string, options: ReadOptions = {}): MemoryFile | undefined {
  try {
    const stat = options.stat ?? statOfFile(file);
    const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const complete = stat.size <= limit;
    let decoding: Decoding;
    if (complete) decoding = readWhole(file);
    else if (!options.prefix) decoding = { ok: false, problem: messages.topicTooLarge(stat.size, limit) };
    else decoding = readPrefix(file, limit);
    // Object.assign onto the fresh decoding, not a spread: measurably cheaper over thousands of files.
    return Object.assign(decoding, { complete, size: stat.size, mtimeMs: stat.mtimeMs });
  } catch (error) {
    if (error instanceof InputError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new IoError(messages.unreadable(file, (error as NodeJS.ErrnoException).code ?? String(error)), { cause: error });
  }
}

function statOfFile(file: string): fs.Stats {
  const stat = fs.statSync(file);
  if (stat.isDirectory()) throw new InputError(file, 'is a directory, expected a Markdown file');
  return stat;
}

/**
 * The whole file by the one rule. Node reads and decodes UTF-8 by path in one
 * native call, and a decoded text with no U+FFFD and no NUL was valid UTF-8
 * without NUL bytes; only the rest is read again as bytes to judge.
 */
function readWhole(file: string): Decoding {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes('\uFFFD') && !text.includes('\0')) return { ok: true, text, encoding: 'UTF-8' };
  return decodeMemoryBytes(fs.readFileSync(file));
}

/**
 * A memory file memdir is about to rewrite, as text: anything it leaves
 * alone (undecodable, too large) or only reads (UTF-16) is an input error
 * naming the file. Missing → undefined.
 */
export function readMemoryText(file: string, options: { maxBytes?: number } = {}): string | undefined {
  const read = readMemoryFile(file, options);
  if (!read) return undefined;
  if (!read.ok) throw new InputError(file, read.problem);
  if (read.encoding !== 'UTF-8') throw new InputError(file, messages.readOnlyEncoding(read.encoding));
  return read.text;
}
