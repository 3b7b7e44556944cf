import type { CommandTable } from '../../shell/command-table.js';

export const forget = {
  name: 'forget',
  command: 'forget <memory>',
  describe: 'Remove one memory: its topic file and its pointer',
  positionals: { memory: { type: 'string', demandOption: true, describe: 'topic file (feedback_terse.md) or memory name' } },
  flags: {},
  examples: [
    ['$0 forget feedback_terse.md', 'by file'],
    ['$0 forget "Terse replies"', 'by name'],
  ],
} as const satisfies CommandTable;
