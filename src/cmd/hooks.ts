import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { HooksCommandOptions } from '../hooks/command.js';
import { commandOptions, type GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { hooks, hooksActions } from './table/hooks.js';

export const { command, describe } = hooks;

export function builder(cli: Argv<GlobalArgs>) {
  let built = cli;
  for (const action of hooksActions) built = built.command(action.command, action.describe, commandOptions(action), run(action.name));
  return built.demandCommand(1, 'name an action: install, uninstall or status');
}

function run(action: HooksCommandOptions['action']) {
  return (args: ArgumentsCamelCase<Omit<HooksCommandOptions, 'action'>>): Promise<void> =>
    runCommand({ ...args, action, withContext: args.withContext ?? false, guard: args.guard ?? true }, async () => (await import('../hooks/command.js')).runHooksCommand);
}

/** Reached only without an action; yargs reports that through demandCommand. */
export function handler(): void {}
