import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { InputError, IoError } from '../core/errors.js';
import { messages } from '../core/messages.js';


/**
 * A memory file as text, refusing what is not one: binary content (NUL
 * bytes) and invalid UTF-8 are input errors naming the file. Missing → undefined.
 */
export function readMemoryText(file: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') throw new InputError(file, 'is a directory, expected a Markdown file');
    throw new IoError(messages.unreadable(file, code ?? String(error)), { cause: error });
  }
  if (bytes.includes(0)) throw new InputError(file, messages.binaryFile());
  // A native validity check, then a plain decode: faster than a fatal TextDecoder on thousands of files.
  if (!isUtf8(bytes)) throw new InputError(file, messages.notUtf8());
  return bytes.toString('utf8');
}
