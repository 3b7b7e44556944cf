import type { CommandTable } from '../../shell/command-table.js';

export const exportTable = {
  name: 'export',
  command: 'export',
  describe: 'Write the private memory (every memory file and its MEMORY.md) to a tar or a folder, to move it without git',
  flags: {
    out: { type: 'string', describe: 'a new FILE.tar, or a new or empty folder (default: memdir-export.tar here)' },
    team: { type: 'boolean', default: false, describe: 'include team memory (team/) too' },
  },
  examples: [
    ['$0 export --out ~/memory.tar', 'private memory as a tar (mode 0600)'],
    ['$0 export --team --out /media/usb/memory', 'private and team memory as a folder'],
  ],
} as const satisfies CommandTable;
