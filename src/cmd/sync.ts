import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { SyncCommandOptions } from '../sync/command.js';
import type { GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'sync [action]';
export const describe = 'Share team memory (<memdir>/team/) through a git remote, or a server speaking the HTTP contract';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .positional('action', { type: 'string', choices: ['pull', 'push'] as const, describe: 'only pull, or only push (default: pull then push)' })
    .option('remote', { type: 'string', describe: 'git remote name or URL (default: origin, or sync.remote in the config)' })
    .option('backend', { type: 'string', choices: ['git', 'http'] as const, describe: 'git branch (default) or the HTTP contract' })
    .option('url', { type: 'string', describe: 'server of the HTTP backend (token from MEMDIR_SYNC_TOKEN)' })
    .option('repo', { type: 'string', describe: 'owner/repo for the HTTP backend (default: from the origin remote)' })
    .option('branch', { type: 'string', describe: 'branch holding team memory (default: memdir/team)' })
    .option('redact', { type: 'boolean', default: false, describe: 'upload a file with a secret redacted instead of refusing it' })
    .option('write', { type: 'boolean', default: false, describe: 'with --redact: rewrite the local file redacted too' })
    .option('prune', { type: 'boolean', default: false, describe: 'propagate local deletions of files synced before' })
    .option('dry-run', { type: 'boolean', default: false, describe: 'report what would be pulled and pushed; write nothing' })
    .example('$0 sync', "pull the team's memory, then push yours (remote: origin, branch memdir/team)")
    .example('$0 sync push --remote git@github.com:acme/memory.git --dry-run', 'what would be pushed')
    .example('MEMDIR_SYNC_TOKEN=… $0 sync --backend http --url https://memory.example.com', 'the HTTP contract');
}

export function handler(args: ArgumentsCamelCase<SyncCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../sync/command.js')).runSyncCommand);
}
