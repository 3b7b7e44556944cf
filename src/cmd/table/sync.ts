import type { CommandTable } from '../../shell/command-table.js';

export const sync = {
  name: 'sync',
  command: 'sync [action]',
  describe: 'Share team memory (<memdir>/team/) through a git remote or the HTTP contract; --scope personal: your private memory between your machines',
  positionals: { action: { type: 'string', choices: ['pull', 'push'], describe: 'only pull, or only push (default: pull then push)' } },
  flags: {
    remote: { type: 'string', describe: 'git remote name or URL (default: origin, or sync.remote in the config)' },
    backend: { type: 'string', choices: ['git', 'http'], describe: 'git branch (default) or the HTTP contract' },
    url: { type: 'string', describe: 'server of the HTTP backend (token from MEMDIR_SYNC_TOKEN)' },
    repo: { type: 'string', describe: 'owner/repo for the HTTP backend (default: from the origin remote)' },
    branch: { type: 'string', describe: 'branch holding the memory (default: memdir/team; personal: memdir/personal/<project>)' },
    redact: { type: 'boolean', default: false, describe: 'upload a file with a secret redacted instead of refusing it' },
    write: { type: 'boolean', default: false, describe: 'with --redact: rewrite the local file redacted too' },
    prune: { type: 'boolean', default: false, describe: 'propagate local deletions of files synced before' },
    'dry-run': { type: 'boolean', default: false, describe: 'report what would be pulled and pushed; write nothing' },
    resolve: { type: 'string', describe: "settle FILE's conflict with --ours or --theirs (no remote contacted)" },
    ours: { type: 'boolean', default: false, describe: 'with --resolve: keep your version; the next sync pushes it' },
    theirs: { type: 'boolean', default: false, describe: "with --resolve: take the remote's version" },
    scope: { type: 'string', choices: ['team', 'personal'], describe: 'team: <memdir>/team/ (default); personal: your private memory, to a remote of your own' },
    'allow-secret': { type: 'boolean', alias: 'allow-secrets', describe: 'with --scope personal: upload files holding a secret (only to a remote your config declares private)' },
  },
  examples: [
    ['$0 sync', "pull the team's memory, then push yours (remote: origin, branch memdir/team)"],
    ['$0 sync push --remote git@github.com:acme/memory.git --dry-run', 'what would be pushed'],
    ['$0 sync --scope personal --remote git@github.com:me/memory.git', 'your private memory, between your own machines'],
    ['MEMDIR_SYNC_TOKEN=… $0 sync --backend http --url https://memory.example.com', 'the HTTP contract'],
    ['$0 sync --resolve team/project_freeze.md --theirs', "a conflict: take the remote's version, drop the conflict copy"],
  ],
  // A plain `memdir sync` that finds nothing changed answers without the CLI.
  fastPath: { when: 'always' },
} as const satisfies CommandTable;
