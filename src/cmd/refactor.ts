import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { GlobalArgs } from '../shell/options.js';

export const command = 'refactor';
export const describe = 'Restructure a bloated MEMORY.md into the two-layer layout: pointers in the index, content in topic files';

export interface RefactorArgs extends GlobalArgs {
  dryRun: boolean;
  anchorDate?: string;
}

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .option('dry-run', { type: 'boolean', default: false, describe: 'print the audit and the plan as a diff; change nothing' })
    .option('anchor-date', { type: 'string', describe: 'resolve relative dates against this date (YYYY-MM-DD) instead of each file\'s own' })
    .example('$0 refactor --dry-run', 'see what would move where')
    .example('$0 refactor --json', 'in CI: restructure and report as JSON');
}

export async function handler(args: ArgumentsCamelCase<RefactorArgs>): Promise<void> {
  const { runRefactorCommand } = await import('../refactor/command.js');
  await runRefactorCommand(args);
}
