import type { CommandTable } from '../../shell/command-table.js';

export const show = {
  name: 'show',
  command: 'show <memory>',
  describe: 'Print one memory with its freshness header',
  positionals: { memory: { type: 'string', demandOption: true, describe: 'topic file (feedback_terse.md) or memory name' } },
  flags: {},
  examples: [
    ['$0 show "Merge freeze"', 'by name'],
    ['$0 show team/project_freeze.md', 'by file'],
  ],
} as const satisfies CommandTable;
