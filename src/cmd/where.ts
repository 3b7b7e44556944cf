import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'where';
export const describe = 'Print the memory directory and how it was resolved';

export function builder(cli: Argv<GlobalArgs>) {
  return cli.example('$0 where', 'print the directory Claude Code uses for this repository').example('$0 where --json', 'also say which rule and which settings file decided it');
}

export function handler(args: ArgumentsCamelCase<GlobalArgs>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/where.js')).runWhere);
}
