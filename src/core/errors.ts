/** Exit codes shared by every command (docs/architecture.md#commands-and-exit-codes). */
export const ExitCode = {
  ok: 0,
  findings: 1,
  failure: 2,
} as const;

/**
 * Base of every error memdir reports to a user: a one-line message, an exit
 * code and an optional hint. Anything else that escapes is a bug and is
 * reported as such.
 */
export class MemdirError extends Error {
  readonly exitCode: number;
  readonly hint: string | undefined;

  constructor(message: string, options: { exitCode?: number; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode ?? ExitCode.failure;
    this.hint = options.hint;
  }
}

/** Bad flags or arguments. */
export class UsageError extends MemdirError {}

/** A file memdir cannot use as it is: names the file and the problem. */
export class InputError extends MemdirError {
  readonly file: string;
  readonly problem: string;

  constructor(file: string, problem: string, options: { hint?: string; cause?: unknown } = {}) {
    super(`${file}: ${problem}`, options);
    this.file = file;
    this.problem = problem;
  }
}

/** Configuration or settings that point somewhere memdir will not go. */
export class ConfigError extends MemdirError {}

/** A write, lock or read failure of the file system. */
export class IoError extends MemdirError {}

/** An operation memdir declines to perform (exit 1): nothing was changed. */
export class RefusedError extends MemdirError {
  constructor(message: string, options: { hint?: string } = {}) {
    super(message, { ...options, exitCode: ExitCode.findings });
  }
}
