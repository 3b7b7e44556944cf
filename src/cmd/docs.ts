import type { ArgumentsCamelCase } from 'yargs';
import type { DocsCommandOptions } from '../docs/command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { docs } from './table/docs.js';

export const { command, describe } = docs;
export const builder = commandOptions(docs);

export function handler(args: ArgumentsCamelCase<DocsCommandOptions & { transcript?: string }>): Promise<void> {
  // yargs turns a lone "-" into an empty string: `--from -` means stdin.
  const from = args.from || args.transcript || (process.argv.includes('-') ? '-' : undefined);
  return runCommand({ ...args, from }, async () => (await import('../docs/command.js')).runDocsCommand);
}
