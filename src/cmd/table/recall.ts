import { fieldDefault } from '../../config/sections.js';
import { ENGINES } from '../../llm/model.js';
import type { CommandTable } from '../../shell/command-table.js';

export const recall = {
  name: 'recall',
  command: 'recall [query..]',
  describe: 'Print the few memories that matter for a query, with freshness headers',
  positionals: { query: { type: 'string', array: true, describe: 'what the agent is about to work on' } },
  flags: {
    limit: { type: 'number', min: 1, fast: true, describe: `at most this many memories (default: recall.limit in memdir.config.json, else ${fieldDefault('recall', 'limit')})` },
    'recent-tools': { type: 'string', describe: 'comma-separated tools in use (their how-to memories are demoted)' },
    'already-surfaced': { type: 'string', describe: 'comma-separated memory files already shown (excluded)' },
    transcript: { type: 'string', describe: "a Claude Code session transcript: memories Claude Code's own recall surfaced in it are excluded" },
    engine: {
      type: 'string',
      choices: ENGINES,
      fast: true,
      describe: 'local ranking, or one side query to Claude (default: recall.engine, else auto = claude when ANTHROPIC_API_KEY is set)',
    },
    model: { type: 'string', fast: true, describe: 'model for --engine claude' },
    semantic: {
      type: 'boolean',
      describe: 'local engine: add the sentence model to the word ranking (default: recall.semantic, else true; --no-semantic for words only; never in --hook)',
    },
    queries: { type: 'string', describe: 'JSONL file of {"id","query"} lines: one JSON result line each (evaluation)' },
    hook: { type: 'boolean', default: false, fast: true, describe: 'answer a Claude Code UserPromptSubmit hook (JSON in, JSON out)' },
  },
  examples: [
    ['$0 recall "can I merge the mobile branch this week?"', 'print the memories that bear on it'],
    ['$0 recall --hook', 'in .claude/settings.json under hooks.UserPromptSubmit'],
  ],
  fastPath: { when: 'hook', globals: ['debug'] },
} as const satisfies CommandTable;
