import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { ContextOptions } from '../memories/context.js';
import type { GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'context';
export const describe = 'Print what an agent should load at session start: memory instructions and the index';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .option('hook', { type: 'boolean', default: false, describe: 'answer a Claude Code SessionStart hook (JSON in, JSON out)' })
    .example('$0 context', 'show the instructions and the index as the agent loads it')
    .example('$0 context --hook', 'in .claude/settings.json under hooks.SessionStart');
}

export function handler(args: ArgumentsCamelCase<ContextOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/context.js')).runContext);
}
