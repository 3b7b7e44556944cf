import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { ForgetOptions } from '../memories/save.js';
import type { GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'forget <memory>';
export const describe = 'Remove one memory: its topic file and its pointer';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .positional('memory', { type: 'string', demandOption: true, describe: 'topic file (feedback_terse.md) or memory name' })
    .example('$0 forget feedback_terse.md', 'by file')
    .example('$0 forget "Terse replies"', 'by name');
}

export function handler(args: ArgumentsCamelCase<ForgetOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/save.js')).runForget);
}
