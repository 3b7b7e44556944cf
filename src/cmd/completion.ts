import type { ArgumentsCamelCase } from 'yargs';
import type { CompletionOptions } from '../shell/completion.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { completion } from './table/completion.js';

export const { command, describe } = completion;
export const builder = commandOptions(completion);

export function handler(args: ArgumentsCamelCase<CompletionOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../shell/completion.js')).runCompletion);
}
