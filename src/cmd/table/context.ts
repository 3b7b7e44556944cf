import type { CommandTable } from '../../shell/command-table.js';

export const context = {
  name: 'context',
  command: 'context',
  describe: 'Print what an agent should load at session start: memory instructions and the index',
  flags: {
    hook: { type: 'boolean', default: false, fast: true, describe: 'answer a Claude Code SessionStart hook (JSON in, JSON out)' },
    'team-only': { type: 'boolean', default: false, fast: true, describe: 'only team memory (team/MEMORY.md): what Claude Code does not load itself; nothing without a team/ folder' },
  },
  examples: [
    ['$0 context', 'show the instructions and the index as the agent loads it'],
    ['$0 context --hook', 'in .claude/settings.json under hooks.SessionStart'],
    ['$0 context --hook --team-only', 'the SessionStart hook hooks install writes: team memory beside the index Claude Code loads'],
  ],
  fastPath: { when: 'hook' },
} as const satisfies CommandTable;
