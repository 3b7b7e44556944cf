import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { ListOptions } from '../memories/browse.js';
import type { GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'list';
export const describe = 'List the memories: type, age, file, whether the index points to it, name and description';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .option('type', { type: 'string', choices: ['user', 'feedback', 'project', 'reference'], describe: 'only memories of this type' })
    .example('$0 list', 'every memory, newest first')
    .example('$0 list --type feedback --json', 'the feedback memories as JSON');
}

export function handler(args: ArgumentsCamelCase<ListOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/browse.js')).runList);
}
