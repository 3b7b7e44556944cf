import type { Argv } from 'yargs';
import { program } from './cmd/program.js';
import { flagGiven } from './shell/args.js';
import { endQuietlyWhenReaderLeaves } from './shell/output.js';
import { reportError } from './shell/report-error.js';
import { leaveDeletedWorkingDirectory } from './store/cwd.js';

export async function main(argv: string[] = process.argv): Promise<void> {
  endQuietlyWhenReaderLeaves();
  leaveDeletedWorkingDirectory();
  // Loaded only now: yargs reads the working directory as it loads. Its CommonJS
  // build wraps help at word boundaries (the ES module build cuts words).
  const yargs = require('yargs') as (args: string[]) => Argv;
  const { hideBin } = require('yargs/helpers') as typeof import('yargs/helpers');
  const args = hideBin(argv);
  const report = { debug: flagGiven(args, 'debug'), json: flagGiven(args, 'json') };
  try {
    await program(yargs, args).parseAsync();
  } catch (error) {
    reportError(error, report);
  }
}

void main();
