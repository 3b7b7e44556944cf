import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { ShowOptions } from '../memories/browse.js';
import type { GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'show <memory>';
export const describe = 'Print one memory with its freshness header';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .positional('memory', { type: 'string', demandOption: true, describe: 'topic file (feedback_terse.md) or memory name' })
    .example('$0 show "Merge freeze"', 'by name')
    .example('$0 show team/project_freeze.md', 'by file');
}

export function handler(args: ArgumentsCamelCase<ShowOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/browse.js')).runShow);
}
