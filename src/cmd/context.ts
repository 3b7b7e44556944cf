import type { ArgumentsCamelCase } from 'yargs';
import type { ContextOptions } from '../memories/context.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { context } from './table/context.js';

export const { command, describe } = context;
export const builder = commandOptions(context);

export function handler(args: ArgumentsCamelCase<ContextOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/context.js')).runContext);
}
