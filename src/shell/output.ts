import pc from 'picocolors';
import { messages } from '../core/messages.js';
import { redactOutput } from '../core/secrets.js';

/** Where a command's results and logs go: results on stdout, everything else on stderr; every secret redacted. */
export interface Output {
  /** A result line on stdout (suppressed with --json: use json()). */
  out(text: string): void;
  /** The one JSON document of a --json run. */
  json(value: unknown): void;
  /** Text on stdout as it is (reports, diffs), whatever the format. */
  write(text: string): void;
  /** A machine document on stdout as it is (JSON, JSON lines, SARIF, a hook's answer), whatever the format. */
  document(text: string): void;
  /** A log or progress line on stderr; dropped with --quiet. */
  info(text: string): void;
  /** A warning on stderr; dropped with --quiet. */
  warn(text: string): void;
  colors: { bold(s: string): string; dim(s: string): string; red(s: string): string; yellow(s: string): string; green(s: string): string; blue(s: string): string; underline(s: string): string };
}

export function createOutput(options: { json: boolean; quiet: boolean; color?: boolean | undefined }): Output {
  const useColor = options.color ?? (!process.env.NO_COLOR && process.stdout.isTTY === true);
  const colors = pc.createColors(useColor);
  return {
    out: (text) => {
      if (!options.json) process.stdout.write(`${redactOutput(text)}\n`);
    },
    json: (value) => process.stdout.write(`${redactOutput(JSON.stringify(value, null, 2), 'json')}\n`),
    write: (text) => process.stdout.write(redactOutput(text)),
    document: (text) => process.stdout.write(redactOutput(text, 'json')),
    info: (text) => {
      if (!options.quiet) process.stderr.write(`${redactOutput(text)}\n`);
    },
    warn: (text) => {
      if (!options.quiet) process.stderr.write(`${redactOutput(text)}\n`);
    },
    colors,
  };
}

/**
 * A reader that stops reading (`memdir lint | head -1`) ends the command
 * quietly with exit 0: every write memdir makes is committed before its report
 * is printed, so nothing is left half done. A closed stderr only loses logs.
 */
export function endQuietlyWhenReaderLeaves(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    process.stderr.write(`memdir: ${messages.notWritable('stdout', error.code ?? error.message)}\n`);
    process.exit(2);
  });
  process.stderr.on('error', () => {});
}
