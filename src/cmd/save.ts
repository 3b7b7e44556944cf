import type { ArgumentsCamelCase } from 'yargs';
import type { SaveOptions } from '../memories/save.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { save } from './table/save.js';

export const { command, describe } = save;
export const builder = commandOptions(save);

export function handler(args: ArgumentsCamelCase<SaveOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/save.js')).runSave);
}
