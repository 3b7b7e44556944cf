import type { ArgumentsCamelCase } from 'yargs';
import type { ListOptions } from '../memories/browse.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { list } from './table/list.js';

export const { command, describe } = list;
export const builder = commandOptions(list);

export function handler(args: ArgumentsCamelCase<ListOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/browse.js')).runList);
}
