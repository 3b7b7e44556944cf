import type { ArgumentsCamelCase } from 'yargs';
import type { DreamCommandOptions } from '../dream/command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { dream } from './table/dream.js';

export const { command, describe } = dream;
export const builder = commandOptions(dream);

export function handler(args: ArgumentsCamelCase<DreamCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../dream/command.js')).runDreamCommand);
}
