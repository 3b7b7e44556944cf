import type { ArgumentsCamelCase } from 'yargs';
import type { RefactorCommandOptions } from '../refactor/command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { refactor } from './table/refactor.js';

export const { command, describe } = refactor;
export const builder = commandOptions(refactor);

export function handler(args: ArgumentsCamelCase<RefactorCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../refactor/command.js')).runRefactorCommand);
}
