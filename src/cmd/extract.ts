import type { ArgumentsCamelCase } from 'yargs';
import type { ExtractCommandOptions } from '../extract/command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { extract } from './table/extract.js';

export const { command, describe } = extract;
export const builder = commandOptions(extract);

export function handler(args: ArgumentsCamelCase<ExtractCommandOptions & { transcript?: string }>): Promise<void> {
  // yargs turns a lone "-" into an empty string: `--from -` means stdin.
  const from = args.from || args.transcript || (process.argv.includes('-') ? '-' : undefined);
  return runCommand({ ...args, from }, async () => (await import('../extract/command.js')).runExtract);
}
