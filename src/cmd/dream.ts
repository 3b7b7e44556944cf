import type { ArgumentsCamelCase, Argv } from 'yargs';
import { fieldDefault } from '../config/sections.js';
import type { DreamCommandOptions } from '../dream/command.js';
import type { EngineName } from '../llm/model.js';
import { wholeNumber, type GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'dream';
export const describe = 'Consolidate memory when due, changing only what a named problem requires: dead pointers, true duplicates, relative dates, drift; contradictions reported';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .option('force', { type: 'boolean', default: false, describe: 'run even when not due' })
    .option('if-due', { type: 'boolean', describe: 'exit 0 quietly when not due (default with --hook)' })
    .option('hook', { type: 'boolean', default: false, describe: 'answer a Claude Code SessionEnd hook (gated; never fails the agent)' })
    .option('status', { type: 'boolean', default: false, describe: 'print the gate: last run, sessions since, due or not and why' })
    .option('dry-run', { type: 'boolean', default: false, describe: 'print the summary, what the agent would see and one line per file with its reasons; change nothing' })
    .option('diff', { type: 'boolean', default: false, describe: 'also print the full unified diff of every file' })
    .option('undo', { type: 'boolean', default: false, describe: 'restore the files of the last run exactly' })
    .option('commit', { type: 'boolean', default: false, describe: 'commit the change in the git work tree holding the directory (the report as message)' })
    .option('restructure', {
      type: 'boolean',
      describe: 'also restructure: move content into topic files, re-render the index, merge near-duplicates, apply contradictions (default: config, else off)',
    })
    .option('prune-drift', { type: 'boolean', default: false, describe: 'delete lines citing code the repository no longer has, instead of marking them **Stale?**' })
    .option('min-hours', { type: 'number', describe: `hours since the last consolidation before it is due (default ${fieldDefault('dream', 'minHours')})` })
    .option('min-sessions', {
      type: 'number',
      coerce: wholeNumber('--min-sessions', 0),
      describe: `sessions since the last consolidation before it is due (default ${fieldDefault('dream', 'minSessions')})`,
    })
    .option('max-delete', { type: 'number', coerce: wholeNumber('--max-delete', 0), describe: `most memories one run may delete, in percent (default ${fieldDefault('dream', 'maxDelete')})` })
    .option('engine', {
      type: 'string',
      choices: ['auto', 'local', 'claude'] as EngineName[],
      describe: 'local (deterministic), or claude to also propose obsolete memories, validated one by one (default: config, else local)',
    })
    .option('model', { type: 'string', describe: 'model for --engine claude' })
    .example('$0 dream --status', 'is a consolidation due, and why')
    .example('$0 dream --force --dry-run', 'see what it would change, and why')
    .example('$0 dream --force --dry-run --diff', 'the same, with the full diff')
    .example('$0 dream --hook', 'in .claude/settings.json under hooks.SessionEnd')
    .example('$0 dream --undo', 'put back what the last run changed')
    .example('$0 dream --force --restructure --dry-run', 'see the full two-layer restructure');
}

export function handler(args: ArgumentsCamelCase<DreamCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../dream/command.js')).runDreamCommand);
}
