import type { CommandTable } from '../../shell/command-table.js';

export const where = {
  name: 'where',
  command: 'where',
  describe: 'Print the memory directory and how it was resolved',
  flags: {},
  examples: [
    ['$0 where', 'print the directory Claude Code uses for this repository'],
    ['$0 where --json', 'also say which rule and which settings file decided it'],
  ],
  // Scripts and shell prompts call it: answered without yargs.
  fastPath: { when: 'always', globals: ['json', 'debug'] },
} as const satisfies CommandTable;
