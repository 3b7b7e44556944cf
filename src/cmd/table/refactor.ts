import { ENGINES } from '../../llm/model.js';
import type { CommandTable } from '../../shell/command-table.js';

export const refactor = {
  name: 'refactor',
  command: 'refactor',
  describe: 'Restructure a bloated MEMORY.md into the two-layer layout: pointers in the index, content in topic files',
  flags: {
    'dry-run': { type: 'boolean', default: false, describe: 'print the audit, what the agent would see and one line per file; change nothing' },
    diff: { type: 'boolean', default: false, describe: 'also print the full unified diff of every file' },
    engine: { type: 'string', choices: ENGINES, default: 'auto', describe: 'who names and types moved content: auto = claude when ANTHROPIC_API_KEY is set' },
    model: { type: 'string', describe: 'model for --engine claude (default: MEMDIR_MODEL or a current Haiku)' },
    'anchor-date': { type: 'string', describe: "resolve relative dates against this date (YYYY-MM-DD) instead of each file's own" },
  },
  examples: [
    ['$0 refactor --dry-run', 'see what would move where, and what the agent would still see'],
    ['$0 refactor --dry-run --diff', 'the same, with the full diff'],
    ['$0 refactor --json', 'in CI: restructure and report as JSON'],
  ],
} as const satisfies CommandTable;
