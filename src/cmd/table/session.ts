import { ENGINES } from '../../llm/model.js';
import type { CommandTable } from '../../shell/command-table.js';

export const session = {
  name: 'session',
  command: 'session [transcript]',
  describe: "Keep a Claude Code session's notes (.memdir/sessions/<id>.md) from its transcript: task, files, commands, errors, worklog",
  // yargs reads a lone "-" as a positional (and leaves --from empty): it lands here.
  positionals: { transcript: { type: 'string', describe: 'same as --from' } },
  flags: {
    from: { type: 'string', describe: 'transcript JSONL file, or - for stdin' },
    hook: { type: 'boolean', default: false, fast: true, describe: 'answer a Claude Code Stop hook at once and keep the notes in the background, when the thresholds say so' },
    'dry-run': { type: 'boolean', default: false, describe: 'print the notes; write nothing (the cursor stays)' },
    engine: {
      type: 'string',
      choices: ENGINES,
      fast: true,
      describe: 'what the transcript states for certain (local), or the template filled by one structured call to Claude (default: session.engine, else local)',
    },
    model: { type: 'string', fast: true, describe: 'model for --engine claude' },
    'session-id': { type: 'string', describe: 'session the notes are for (default: the transcript names it, else its file name)' },
    'after-stop': { type: 'boolean', hidden: true, describe: 'started by the Stop hook: keep to the thresholds, wait briefly for a transcript not created yet' },
  },
  examples: [
    ['$0 session --from ~/.claude/projects/-home-me-app/SESSION.jsonl', 'write the notes of that session now'],
    ['$0 session --hook', 'in .claude/settings.json under hooks.Stop'],
    ['$0 session --from SESSION.jsonl --dry-run', 'print the notes, write nothing'],
  ],
  fastPath: { when: 'hook' },
} as const satisfies CommandTable;
