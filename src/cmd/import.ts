import type { ArgumentsCamelCase } from 'yargs';
import type { ImportCommandOptions } from '../sync/transfer-command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { importTable } from './table/import.js';

export const { command, describe } = importTable;
export const builder = commandOptions(importTable);

export function handler(args: ArgumentsCamelCase<ImportCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../sync/transfer-command.js')).runImport);
}
