import type { ArgumentsCamelCase } from 'yargs';
import type { ForgetOptions } from '../memories/save.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { forget } from './table/forget.js';

export const { command, describe } = forget;
export const builder = commandOptions(forget);

export function handler(args: ArgumentsCamelCase<ForgetOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/save.js')).runForget);
}
