import type { CommandTable } from '../../shell/command-table.js';

export const importTable = {
  name: 'import',
  command: 'import <source>',
  describe: 'Write memory files from a tar or a folder (an export) into the memory directory; an existing different file is kept',
  positionals: { source: { type: 'string', demandOption: true, describe: 'FILE.tar or a folder, as `memdir export` writes them' } },
  flags: {
    force: { type: 'boolean', default: false, describe: 'replace a different existing file with the imported one' },
    'allow-secret': { type: 'boolean', default: false, describe: 'import files that hold a secret too' },
  },
  examples: [
    ['$0 import ~/memory.tar', 'new files written; a file that differs here is kept and reported (exit 1)'],
    ['$0 import ~/memory.tar --force', 'the imported version wins'],
  ],
} as const satisfies CommandTable;
