import { ENGINES } from '../../llm/model.js';
import type { CommandTable } from '../../shell/command-table.js';

export const docs = {
  name: 'docs',
  command: 'docs [transcript]',
  describe: 'Keep the Magic Docs of the repository current ("# MAGIC DOC: <title>" files), after the turns that read them',
  // yargs reads a lone "-" as a positional (and leaves --from empty): it lands here.
  positionals: { transcript: { type: 'string', describe: 'same as --from' } },
  flags: {
    from: { type: 'string', describe: 'transcript JSONL file, or - for stdin: update the docs its new part read (without it: list the docs)' },
    hook: { type: 'boolean', default: false, fast: true, describe: 'answer a Claude Code Stop hook at once and update the docs in the background' },
    'dry-run': { type: 'boolean', default: false, describe: 'print each update as a unified diff; write nothing (the cursor stays)' },
    engine: {
      type: 'string',
      choices: ENGINES,
      fast: true,
      describe: 'claude updates the docs read in a turn; local only lists them and what the session touched, writing nothing (default: docs.engine, else auto = claude when ANTHROPIC_API_KEY is set)',
    },
    model: { type: 'string', fast: true, describe: 'model for --engine claude' },
    'session-id': { type: 'string', hidden: true, describe: 'session whose cursor to use (the hook passes it on)' },
    'after-stop': { type: 'boolean', hidden: true, describe: 'started by the Stop hook: wait briefly for a transcript not created yet' },
  },
  examples: [
    ['$0 docs', 'list the Magic Docs of the repository'],
    ['$0 docs --from SESSION.jsonl --dry-run', 'the updates the new turns of a session call for, as a diff'],
    ['$0 docs --hook', 'in .claude/settings.json under hooks.Stop (memdir hooks install --with-docs)'],
  ],
  fastPath: { when: 'hook' },
} as const satisfies CommandTable;
