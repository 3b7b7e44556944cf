import type { ArgumentsCamelCase } from 'yargs';
import type { RecallCommandOptions } from '../recall/command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { recall } from './table/recall.js';

export const { command, describe } = recall;
export const builder = commandOptions(recall);

export function handler(args: ArgumentsCamelCase<RecallCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../recall/command.js')).runRecallCommand);
}
