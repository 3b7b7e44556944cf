import { ENGINES } from '../../llm/model.js';
import type { CommandTable } from '../../shell/command-table.js';

export const extract = {
  name: 'extract',
  command: 'extract [transcript]',
  describe: 'Turn the new part of a Claude Code transcript into memories (durable statements only)',
  // yargs reads a lone "-" as a positional (and leaves --from empty): it lands here.
  positionals: { transcript: { type: 'string', describe: 'same as --from' } },
  flags: {
    from: { type: 'string', describe: 'transcript JSONL file, or - for stdin' },
    hook: { type: 'boolean', default: false, fast: true, describe: 'answer a Claude Code Stop hook at once and extract in the background' },
    'dry-run': { type: 'boolean', default: false, describe: 'print the operations; change nothing (the cursor stays)' },
    engine: {
      type: 'string',
      choices: ENGINES,
      fast: true,
      describe: 'local rules, or one structured call to Claude (default: extract.engine, else auto = claude when ANTHROPIC_API_KEY is set)',
    },
    model: { type: 'string', fast: true, describe: 'model for --engine claude' },
    every: { type: 'number', min: 1, fast: true, describe: 'extract only once N new user turns have gathered (default: extract.every, else 1)' },
    'explicit-only': {
      type: 'boolean',
      fast: true,
      describe:
        'local engine: only what was asked for, explicit requests and standing instructions ("from now on…", "never…"); the inferred rest waits for --review (default: extract.explicitOnly, else true in the runs the Stop hook starts and false by hand)',
    },
    team: { type: 'boolean', default: false, describe: 'write team memory (team/, shared by memdir sync) instead of private memory; with --from only' },
    review: { type: 'boolean', default: false, describe: 'list the statements the Stop hook kept aside (inferred, not saved), each with the command to accept or discard it' },
    accept: { type: 'string', describe: 'save the kept-aside statement ID as extract would have, and take it off the list' },
    discard: { type: 'string', describe: 'take the kept-aside statement ID off the list without saving it' },
    'session-id': { type: 'string', hidden: true, describe: 'session whose cursor to use (the hook passes it on)' },
    'after-stop': { type: 'boolean', hidden: true, describe: 'started by the Stop hook: wait briefly for a transcript not created yet' },
  },
  examples: [
    ['$0 extract --from ~/.claude/projects/-home-me-app/SESSION.jsonl', 'save what the user asked to remember'],
    ['$0 extract --hook', 'in .claude/settings.json under hooks.Stop'],
    ['$0 extract --team --from notes-from-the-retro.jsonl', 'what the team agreed on, into team memory'],
    ['$0 extract --review', 'what the Stop hook kept aside, with the command to accept or discard each'],
  ],
  fastPath: { when: 'hook' },
} as const satisfies CommandTable;
