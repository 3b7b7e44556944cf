import type { ArgumentsCamelCase } from 'yargs';
import type { SessionCommandOptions } from '../session/command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { session } from './table/session.js';

export const { command, describe } = session;
export const builder = commandOptions(session);

export function handler(args: ArgumentsCamelCase<SessionCommandOptions & { transcript?: string }>): Promise<void> {
  // yargs turns a lone "-" into an empty string: `--from -` means stdin.
  const from = args.from || args.transcript || (process.argv.includes('-') ? '-' : undefined);
  return runCommand({ ...args, from }, async () => (await import('../session/command.js')).runSession);
}
