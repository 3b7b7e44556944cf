import type fs from 'node:fs';
import { messages } from '../core/messages.js';

/** Why a path cannot be a transcript (not a regular file: it could block or never end), or undefined. */
export function transcriptFileProblem(stat: fs.Stats): string | undefined {
  if (stat.isFile()) return undefined;
  const kind = stat.isDirectory()
    ? 'a directory'
    : stat.isFIFO()
      ? 'a named pipe (FIFO)'
      : stat.isCharacterDevice()
        ? 'a character device'
        : stat.isSocket()
          ? 'a socket'
          : 'a block device or other special file';
  return messages.transcriptNotFile(kind);
}
