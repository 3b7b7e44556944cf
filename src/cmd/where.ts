import type { ArgumentsCamelCase } from 'yargs';
import { commandOptions, type GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { where } from './table/where.js';

export const { command, describe } = where;
export const builder = commandOptions(where);

export function handler(args: ArgumentsCamelCase<GlobalArgs>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/where.js')).runWhere);
}
