import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';

let deleted = false;

/**
 * For the CLI, before anything else loads: a deleted working directory makes
 * process.cwd() throw, and yargs calls it as it loads. Step out to the root so
 * the command can start; workingDirectory() still reports the real one gone.
 */
export function leaveDeletedWorkingDirectory(): void {
  try {
    process.cwd();
  } catch {
    deleted = true;
    process.chdir(path.parse(process.execPath).root);
  }
}

/** The working directory, or undefined when it no longer exists. */
export function workingDirectory(): string | undefined {
  if (deleted) return undefined;
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

/** The working directory; one line (exit 2) when it no longer exists. */
export function requireWorkingDirectory(): string {
  const cwd = workingDirectory();
  if (cwd === undefined) throw new UsageError(messages.workingDirectoryGone());
  return cwd;
}

/** `input` as an absolute path; a relative one needs the working directory. */
export function absolutePath(input: string): string {
  return path.isAbsolute(input) ? path.resolve(input) : path.resolve(requireWorkingDirectory(), input);
}
