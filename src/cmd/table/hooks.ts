import type { CommandTable, Flags } from '../../shell/command-table.js';

/** What every action takes: which hooks, and for the Claude Code ones, where and how they run memdir. */
const targets = {
  git: { type: 'boolean', default: false, describe: 'the git pre-commit hook (memdir lint --staged)' },
  claude: { type: 'boolean', default: false, describe: 'the Claude Code hooks in a settings file' },
  scope: {
    type: 'string',
    choices: ['local', 'project', 'user'],
    describe: 'settings file: local (.claude/settings.local.json, default), project (.claude/settings.json), user (~/.claude/settings.json)',
  },
  command: {
    type: 'string',
    describe:
      "how the hooks invoke memdir, e.g. an absolute path (default: hooks.command in config, else a command Claude Code can run: the project's node_modules/.bin/memdir, memdir on PATH, or node and this bin)",
  },
} as const satisfies Flags;

export const hooks = {
  name: 'hooks',
  command: 'hooks',
  describe: 'Install, remove or list the git pre-commit and Claude Code hooks that run memdir',
  flags: {},
} as const satisfies CommandTable;

/** `memdir hooks <action>`: one table each. */
export const hooksActions = [
  {
    name: 'install',
    command: 'install',
    describe: 'add memdir hooks (neither --git nor --claude: both)',
    flags: {
      ...targets,
      'with-context': {
        type: 'boolean',
        default: false,
        describe: 'SessionStart → memdir context --hook: the whole index too, not only team memory (Claude Code loads MEMORY.md itself when auto memory is on)',
      },
      'with-docs': {
        type: 'boolean',
        default: false,
        describe: 'Stop → memdir docs --hook too: the Magic Docs read in a turn are updated by the model (needs ANTHROPIC_API_KEY where Claude Code runs)',
      },
      guard: {
        type: 'boolean',
        default: true,
        describe: 'PreToolUse on Write|Edit|MultiEdit → memdir guard --hook, which refuses a write that breaks the memory directory (--no-guard leaves it out)',
      },
      session: {
        type: 'boolean',
        default: true,
        describe: "Stop → memdir session --hook as well: the session's notes, kept in the background once the conversation is long enough (--no-session leaves it out)",
      },
    },
    examples: [
      ['$0 hooks install', 'git pre-commit + Claude Code hooks in .claude/settings.local.json'],
      ['$0 hooks install --claude --scope project', 'committed settings for a team with memdir as a devDependency'],
    ],
  },
  {
    name: 'uninstall',
    command: 'uninstall',
    describe: 'remove exactly what install added',
    flags: targets,
    examples: [['$0 hooks uninstall', 'git pre-commit + local and project settings']],
  },
  {
    name: 'status',
    command: 'status',
    describe: 'list each hook, whose it is and whether it would run as Claude Code or git runs it (nothing is run; exit 1 when one would not)',
    flags: targets,
    examples: [['$0 hooks status --json', 'machine-readable']],
  },
] as const satisfies readonly CommandTable[];
