import type { CommandTable } from '../../shell/command-table.js';

export const forget = {
  name: 'forget',
  command: 'forget <memory>',
  describe: 'Remove one memory: its topic file and its pointer',
  positionals: { memory: { type: 'string', demandOption: true, describe: 'topic file (feedback_terse.md) or memory name' } },
  flags: {
    team: { type: 'boolean', default: false, describe: 'remove a team memory (team/, shared by memdir sync) instead of a private one' },
  },
  examples: [
    ['$0 forget feedback_terse.md', 'by file'],
    ['$0 forget "Terse replies"', 'by name'],
    ['$0 forget --team "Release train"', 'a team memory, for everyone at the next sync'],
  ],
} as const satisfies CommandTable;
