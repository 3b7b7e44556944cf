import type { ArgumentsCamelCase } from 'yargs';
import type { ShowOptions } from '../memories/browse.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { show } from './table/show.js';

export const { command, describe } = show;
export const builder = commandOptions(show);

export function handler(args: ArgumentsCamelCase<ShowOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/browse.js')).runShow);
}
