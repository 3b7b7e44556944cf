import type { CommandTable } from '../../shell/command-table.js';

export const context = {
  name: 'context',
  command: 'context',
  describe: 'Print what an agent should load at session start: memory instructions and the index',
  flags: {
    hook: { type: 'boolean', default: false, fast: true, describe: 'answer a Claude Code SessionStart hook (JSON in, JSON out)' },
  },
  examples: [
    ['$0 context', 'show the instructions and the index as the agent loads it'],
    ['$0 context --hook', 'in .claude/settings.json under hooks.SessionStart'],
  ],
  fastPath: { when: 'hook' },
} as const satisfies CommandTable;
