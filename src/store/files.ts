import fs from 'node:fs';
import { InputError, IoError } from '../core/errors.js';
import { messages } from '../core/messages.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

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
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InputError(file, messages.notUtf8());
  }
}
