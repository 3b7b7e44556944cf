import { MemdirError } from '../core/errors.js';
import { messages, printable } from '../core/messages.js';
import { redactOutput } from '../core/secrets.js';

/** One line on stderr (and a JSON document on stdout under --json), the exit code set. */
export function reportError(error: unknown, options: { debug: boolean; json: boolean }): void {
  const known = error instanceof MemdirError;
  const message = known ? error.message : messages.internalError(error instanceof Error ? error.message : String(error));
  const exitCode = known ? error.exitCode : 2;
  const hint = known ? error.hint : undefined;
  // An error may quote user text (a line, a value, a name): redacted like every other output.
  process.stderr.write(`${redactOutput(`${known ? 'memdir: ' : ''}${printable(message)}${hint ? ` (${printable(hint)})` : ''}`)}\n`);
  if (options.json) process.stdout.write(`${redactOutput(JSON.stringify({ error: { message, exitCode, ...(hint ? { hint } : {}) } }), 'json')}\n`);
  if (options.debug && error instanceof Error && error.stack) process.stderr.write(`${redactOutput(error.stack)}\n`);
  process.exitCode = exitCode;
}
