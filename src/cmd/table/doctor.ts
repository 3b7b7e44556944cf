import type { CommandTable } from '../../shell/command-table.js';

export const doctor = {
  name: 'doctor',
  command: 'doctor',
  describe: 'Check which memory Claude Code uses and why: split, shared and orphaned stores, what loads, hooks',
  flags: {
    'all-projects': { type: 'boolean', default: false, describe: 'report shared and orphaned folders of every project, not only this one' },
    fix: {
      type: 'boolean',
      default: false,
      describe: "merge this project's split stores into its memory directory (one undo record per merge); take over dead locks, complete interrupted transactions",
    },
    'move-orphan': { type: 'string', describe: "merge an orphaned folder (its path, name or old project path) into this project's memory directory" },
    to: { type: 'string', describe: 'with --move-orphan or --undo: the project it goes to (default: the one in the working directory)' },
    undo: { type: 'boolean', default: false, describe: 'reverse the last merge of --fix or --move-orphan, byte for byte' },
    'search-root': { type: 'string', describe: 'folders that hold your projects, separated by : (; on Windows): where a moved or renamed project is looked for' },
  },
  examples: [
    ['$0 doctor', 'where the memory is, why, and what is wrong with it'],
    ['$0 doctor --all-projects --search-root ~/src', 'every folder of every project; look for moved ones under ~/src'],
    ['$0 doctor --fix', "merge this project's split stores; --undo reverses it"],
    ['$0 doctor --move-orphan ~/src/old-name --to ~/src/new-name', "a renamed project's memory follows it"],
  ],
} as const satisfies CommandTable;
