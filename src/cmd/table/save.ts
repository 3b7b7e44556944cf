import type { CommandTable } from '../../shell/command-table.js';

export const save = {
  name: 'save',
  command: 'save',
  describe: 'Write one memory: its topic file and its pointer in MEMORY.md, in one atomic step',
  flags: {
    type: { type: 'string', demandOption: true, describe: 'user | feedback | project | reference' },
    name: { type: 'string', demandOption: true, describe: 'short title; saving the same name again updates it' },
    description: { type: 'string', demandOption: true, describe: 'one line that says when this memory is relevant' },
    body: { type: 'string', describe: 'the memory text (default: read from stdin)' },
    team: { type: 'boolean', default: false, describe: 'write team memory (team/, shared by memdir sync) instead of private memory' },
    'allow-secret': { type: 'boolean', describe: 'save a private memory that holds a secret as it is (team memory never takes one)' },
    redact: { type: 'boolean', describe: 'save with each secret replaced by [REDACTED]' },
  },
  examples: [
    ['$0 save --type feedback --name "Terse replies" --description "User wants no recap at the end of responses" --body "Skip the trailing summary."', 'save a feedback memory'],
    ['$0 save --team --type project --name "Release train" --description "Releases leave main every Tuesday 10:00 UTC" --body "…"', 'save (or update) a team memory'],
    ['git log -1 --format=%B | $0 save --type project --name "Merge freeze" --description "No merges to main until 2026-03-05"', 'body from stdin'],
  ],
} as const satisfies CommandTable;
