import type { CommandTable } from '../../shell/command-table.js';

export const list = {
  name: 'list',
  command: 'list',
  describe: 'List the memories: type, age, scope, file, whether the index points to it, name and description',
  flags: {
    type: { type: 'string', choices: ['user', 'feedback', 'project', 'reference'], describe: 'only memories of this type' },
  },
  examples: [
    ['$0 list', 'every memory, newest first'],
    ['$0 list --type feedback --json', 'the feedback memories as JSON'],
  ],
} as const satisfies CommandTable;
