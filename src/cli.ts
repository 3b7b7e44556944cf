import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import pkg from '../package.json' with { type: 'json' };
import { MemdirError, UsageError } from './core/errors.js';
import { messages } from './core/messages.js';
import * as context from './cmd/context.js';
import * as forget from './cmd/forget.js';
import * as lint from './cmd/lint.js';
import * as recall from './cmd/recall.js';
import * as refactor from './cmd/refactor.js';
import * as save from './cmd/save.js';
import * as where from './cmd/where.js';
import { globalOptions } from './shell/options.js';

// Command modules hold options and a handler; each handler imports its logic
// on demand, so `memdir where` never loads what `memdir save` needs.
const commands = [where, context, save, forget, lint, refactor, recall];

function reportError(error: unknown, debug: boolean): void {
  if (error instanceof MemdirError) {
    const hint = error.hint ? ` (${error.hint})` : '';
    process.stderr.write(`memdir: ${error.message}${hint}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`${messages.internalError(error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = 2;
  }
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
}

export async function main(argv: string[] = process.argv): Promise<void> {
  const args = hideBin(argv);
  const debug = args.includes('--debug');
  let cli = globalOptions(yargs(args))
    .scriptName('memdir')
    .usage('$0 <command> [options]\n\nKeep file-based agent memory (MEMORY.md + topic files) healthy.')
    .strict()
    .demandCommand(1, 'name a command; `memdir --help` lists them')
    .recommendCommands()
    .version(pkg.version)
    .help()
    .alias('h', 'help')
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error) throw error;
      throw new UsageError(message);
    });
  for (const command of commands) cli = cli.command(command as never);
  try {
    await cli.parseAsync();
  } catch (error) {
    reportError(error, debug);
  }
}

void main();
