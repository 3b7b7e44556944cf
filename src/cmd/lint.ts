import type { ArgumentsCamelCase } from 'yargs';
import type { LintCommandOptions } from '../lint/command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { lint } from './table/lint.js';

export const { command, describe } = lint;
export const builder = commandOptions(lint);

export function handler(args: ArgumentsCamelCase<LintCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../lint/command.js')).runLintCommand);
}
