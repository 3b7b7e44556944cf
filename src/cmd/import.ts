import type { ArgumentsCamelCase } from 'yargs';
import type { ImportOptions } from '../sync/transfer.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { importTable } from './table/import.js';

export const { command, describe } = importTable;
export const builder = commandOptions(importTable);

export function handler(args: ArgumentsCamelCase<ImportOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../sync/transfer.js')).runImport);
}
