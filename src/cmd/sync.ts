import type { ArgumentsCamelCase } from 'yargs';
import type { SyncCommandOptions } from '../sync/command.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { sync } from './table/sync.js';

export const { command, describe } = sync;
export const builder = commandOptions(sync);

export function handler(args: ArgumentsCamelCase<SyncCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../sync/command.js')).runSyncCommand);
}
