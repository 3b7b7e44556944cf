import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { HooksCommandOptions } from '../hooks/command.js';
import type { GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'hooks';
export const describe = 'Install, remove or list the git pre-commit and Claude Code hooks that run memdir';

function targetOptions<T>(cli: Argv<T>) {
  return cli
    .option('git', { type: 'boolean', default: false, describe: 'the git pre-commit hook (memdir lint --staged)' })
    .option('claude', { type: 'boolean', default: false, describe: 'the Claude Code hooks in a settings file' })
    .option('scope', {
      type: 'string',
      choices: ['local', 'project', 'user'] as const,
      describe: 'settings file: local (.claude/settings.local.json, default), project (.claude/settings.json), user (~/.claude/settings.json)',
    })
    .option('command', {
      type: 'string',
      describe:
        "how the hooks invoke memdir, e.g. an absolute path (default: hooks.command in config, else a command Claude Code can run: the project's node_modules/.bin/memdir, memdir on PATH, or node and this bin)",
    });
}

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .command(
      'install',
      'add memdir hooks (neither --git nor --claude: both)',
      (y) =>
        targetOptions(y)
          .option('with-context', { type: 'boolean', default: false, describe: 'also SessionStart → memdir context --hook (Claude Code loads MEMORY.md itself when auto memory is on)' })
          .example('$0 hooks install', 'git pre-commit + Claude Code hooks in .claude/settings.local.json')
          .example('$0 hooks install --claude --scope project', 'committed settings for a team with memdir as a devDependency'),
      run('install'),
    )
    .command('uninstall', 'remove exactly what install added', (y) => targetOptions(y).example('$0 hooks uninstall', 'git pre-commit + local and project settings'), run('uninstall'))
    .command(
      'status',
      'list each hook, whose it is and whether it would run as Claude Code or git runs it (nothing is run; exit 1 when one would not)',
      (y) => targetOptions(y).example('$0 hooks status --json', 'machine-readable'),
      run('status'),
    )
    .demandCommand(1, 'name an action: install, uninstall or status');
}

function run(action: HooksCommandOptions['action']) {
  return (args: ArgumentsCamelCase<Omit<HooksCommandOptions, 'action'>>): Promise<void> =>
    runCommand({ ...args, action, withContext: args.withContext ?? false }, async () => (await import('../hooks/command.js')).runHooksCommand);
}

/** Reached only without an action; yargs reports that through demandCommand. */
export function handler(): void {}
