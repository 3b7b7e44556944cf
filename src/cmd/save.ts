import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { SaveOptions } from '../memories/save.js';
import type { GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'save';
export const describe = 'Write one memory: its topic file and its pointer in MEMORY.md, in one atomic step';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .option('type', { type: 'string', demandOption: true, describe: 'user | feedback | project | reference' })
    .option('name', { type: 'string', demandOption: true, describe: 'short title; saving the same name again updates it' })
    .option('description', { type: 'string', demandOption: true, describe: 'one line that says when this memory is relevant' })
    .option('body', { type: 'string', describe: 'the memory text (default: read from stdin)' })
    .example('$0 save --type feedback --name "Terse replies" --description "User wants no recap at the end of responses" --body "Skip the trailing summary."', 'save a feedback memory')
    .example('git log -1 --format=%B | $0 save --type project --name "Merge freeze" --description "No merges to main until 2026-03-05"', 'body from stdin');
}

export function handler(args: ArgumentsCamelCase<SaveOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../memories/save.js')).runSave);
}
