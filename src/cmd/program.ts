import type { Argv } from 'yargs';
import pkg from '../../package.json' with { type: 'json' };
import { UsageError } from '../core/errors.js';
import { checkOptionValues, type OptionTable } from '../shell/args.js';
import { globalOptions } from '../shell/options.js';
import * as completion from './completion.js';
import * as context from './context.js';
import * as guard from './guard.js';
import * as doctor from './doctor.js';
import * as docs from './docs.js';
import * as dream from './dream.js';
import * as exportCommand from './export.js';
import * as extract from './extract.js';
import * as forget from './forget.js';
import * as hooks from './hooks.js';
import * as importCommand from './import.js';
import * as lint from './lint.js';
import * as list from './list.js';
import * as recall from './recall.js';
import * as refactor from './refactor.js';
import * as save from './save.js';
import * as session from './session.js';
import * as show from './show.js';
import * as sync from './sync.js';
import * as where from './where.js';

/** A command module: its table's command string, description and yargs builder, and its handler. */
export interface CommandModule {
  command: string;
  describe: string;
  builder: (cli: never) => unknown;
  handler: (args: never) => unknown;
}

// Command modules hold options and a handler; each handler imports its logic
// on demand, so `memdir where` never loads what `memdir save` needs.
export const COMMANDS: readonly CommandModule[] = [
  where,
  context,
  save,
  forget,
  list,
  show,
  lint,
  refactor,
  recall,
  extract,
  session,
  docs,
  dream,
  sync,
  exportCommand,
  importCommand,
  guard,
  hooks,
  doctor,
  completion,
];

/** Help at the terminal's width (or $COLUMNS when piped), at most 100 columns. */
function helpWidth(): number {
  return Math.min(100, process.stdout.columns || Number(process.env.COLUMNS) || 100);
}

/**
 * The full CLI for one command line, ready to parse: the global options, every command of
 * `commands`, and the checks yargs does not make (`checkOptionValues`). `yargs` is the package's
 * factory, passed in because the CLI loads it only when it runs.
 */
export function program(yargs: (args: string[]) => Argv, args: string[], commands: readonly CommandModule[] = COMMANDS): Argv {
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
  return cli;
}
