import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { EngineName } from '../llm/model.js';
import type { RefactorCommandOptions } from '../refactor/command.js';
import type { GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'refactor';
export const describe = 'Restructure a bloated MEMORY.md into the two-layer layout: pointers in the index, content in topic files';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .option('dry-run', { type: 'boolean', default: false, describe: 'print the audit, what the agent would see and one line per file; change nothing' })
    .option('diff', { type: 'boolean', default: false, describe: 'also print the full unified diff of every file' })
    .option('engine', {
      type: 'string',
      choices: ['auto', 'local', 'claude'] as const,
      default: 'auto' as EngineName,
      describe: 'who names and types moved content: auto = claude when ANTHROPIC_API_KEY is set',
    })
    .option('model', { type: 'string', describe: 'model for --engine claude (default: MEMDIR_MODEL or a current Haiku)' })
    .option('anchor-date', { type: 'string', describe: "resolve relative dates against this date (YYYY-MM-DD) instead of each file's own" })
    .example('$0 refactor --dry-run', 'see what would move where, and what the agent would still see')
    .example('$0 refactor --dry-run --diff', 'the same, with the full diff')
    .example('$0 refactor --json', 'in CI: restructure and report as JSON');
}

export function handler(args: ArgumentsCamelCase<RefactorCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../refactor/command.js')).runRefactorCommand);
}
