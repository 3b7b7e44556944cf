import type { ArgumentsCamelCase } from 'yargs';
import type { GuardOptions } from '../guard/command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { guard } from './table/guard.js';

export const { command, describe } = guard;
export const builder = commandOptions(guard);

export function handler(args: ArgumentsCamelCase<GuardOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../guard/command.js')).runGuard);
}
