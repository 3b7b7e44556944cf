import type { Argv } from 'yargs';
import pkg from '../package.json' with { type: 'json' };
import { UsageError } from './core/errors.js';
import * as completion from './cmd/completion.js';
import * as context from './cmd/context.js';
import * as extract from './cmd/extract.js';
import * as dream from './cmd/dream.js';
import * as forget from './cmd/forget.js';
import * as hooks from './cmd/hooks.js';
import * as lint from './cmd/lint.js';
import * as list from './cmd/list.js';
import * as recall from './cmd/recall.js';
import * as refactor from './cmd/refactor.js';
import * as save from './cmd/save.js';
import * as show from './cmd/show.js';
import * as sync from './cmd/sync.js';
import * as where from './cmd/where.js';
import { flagGiven, checkOptionValues, type OptionTable } from './shell/args.js';
import { globalOptions } from './shell/options.js';
import { endQuietlyWhenReaderLeaves } from './shell/output.js';
import { reportError } from './shell/report-error.js';
import { leaveDeletedWorkingDirectory } from './store/cwd.js';

// Command modules hold options and a handler; each handler imports its logic
// on demand, so `memdir where` never loads what `memdir save` needs.
const commands = [where, context, save, forget, list, show, lint, refactor, recall, extract, dream, sync, hooks, completion];

/** Help at the terminal's width (or $COLUMNS when piped), at most 100 columns. */
function helpWidth(): number {
  return Math.min(100, process.stdout.columns || Number(process.env.COLUMNS) || 100);
}

export async function main(argv: string[] = process.argv): Promise<void> {
  endQuietlyWhenReaderLeaves();
  leaveDeletedWorkingDirectory();
  // Loaded only now: yargs reads the working directory as it loads. Its CommonJS
  // build wraps help at word boundaries (the ES module build cuts words).
  const yargs = require('yargs') as Argv;
  const { hideBin } = require('yargs/helpers') as typeof import('yargs/helpers');
  const args = hideBin(argv);
  const report = { debug: flagGiven(args, 'debug'), json: flagGiven(args, 'json') };
  let cli = globalOptions(yargs(args))
    .scriptName('memdir')
    .usage('$0 <command> [options]\n\nKeep file-based agent memory (MEMORY.md + topic files) healthy.')
    .strict()
    .demandCommand(1, 'name a command; `memdir --help` lists them')
    .recommendCommands()
    .version(pkg.version)
    .help()
    .alias('h', 'help')
    .wrap(helpWidth())
    .fail((message, error) => {
      // Errors of our own handlers pass through as they are; yargs' own become one usage line.
      if (error && error.name !== 'YError') throw error;
      throw new UsageError((message ?? error?.message ?? '').replace(/\s*\n\s*/g, ' '));
    });
  for (const command of commands) {
    const builder = (y: Argv<never>) => {
      const built = command.builder(y as never);
      // getOptions() is public yargs API that @types/yargs does not declare.
      // A completion request ends in the word being typed (`--f`): not a command line to check.
      if (!args.includes('--get-yargs-completions')) checkOptionValues((built as unknown as { getOptions(): OptionTable }).getOptions(), args);
      return built;
    };
    cli = cli.command({ ...command, builder } as never);
  }
  try {
    await cli.parseAsync();
  } catch (error) {
    reportError(error, report);
  }
}

void main();
