import { MemdirError } from '../core/errors.js';
import { messages, printable } from '../core/messages.js';

/** One line on stderr (and a JSON document on stdout under --json), the exit code set. */
export function reportError(error: unknown, options: { debug: boolean; json: boolean }): void {
  const known = error instanceof MemdirError;
  const message = known ? error.message : messages.internalError(error instanceof Error ? error.message : String(error));
  const exitCode = known ? error.exitCode : 2;
  const hint = known ? error.hint : undefined;
  process.stderr.write(`${known ? 'memdir: ' : ''}${printable(message)}${hint ? ` (${printable(hint)})` : ''}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify({ error: { message, exitCode, ...(hint ? { hint } : {}) } })}\n`);
  if (options.debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exitCode = exitCode;
}
