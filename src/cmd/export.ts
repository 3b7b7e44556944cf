import type { ArgumentsCamelCase } from 'yargs';
import type { ExportCommandOptions } from '../sync/transfer-command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { exportTable } from './table/export.js';

export const { command, describe } = exportTable;
export const builder = commandOptions(exportTable);

export function handler(args: ArgumentsCamelCase<ExportCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../sync/transfer-command.js')).runExport);
}
