import type { ArgumentsCamelCase, Argv } from 'yargs';
import { fieldDefault } from '../config/sections.js';
import type { RecallCommandOptions } from '../recall/command.js';
import { wholeNumber, type GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'recall [query..]';
export const describe = 'Print the few memories that matter for a query, with freshness headers';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .positional('query', { type: 'string', array: true, describe: 'what the agent is about to work on' })
    .option('limit', {
      type: 'number',
      coerce: wholeNumber('--limit', 1),
      describe: `at most this many memories (default: recall.limit in memdir.config.json, else ${fieldDefault('recall', 'limit')})`,
    })
    .option('recent-tools', { type: 'string', describe: 'comma-separated tools in use (their how-to memories are demoted)' })
    .option('already-surfaced', { type: 'string', describe: 'comma-separated memory files already shown (excluded)' })
    .option('engine', {
      type: 'string',
      choices: ['auto', 'local', 'claude'] as const,
      describe: 'local ranking, or one side query to Claude (default: recall.engine, else auto = claude when ANTHROPIC_API_KEY is set)',
    })
    .option('model', { type: 'string', describe: 'model for --engine claude' })
    .option('semantic', {
      type: 'boolean',
      describe: 'local engine: add the sentence model to the word ranking (default: recall.semantic, else true; --no-semantic for words only; never in --hook)',
    })
    .option('queries', { type: 'string', describe: 'JSONL file of {"id","query"} lines: one JSON result line each (evaluation)' })
    .option('hook', { type: 'boolean', default: false, describe: 'answer a Claude Code UserPromptSubmit hook (JSON in, JSON out)' })
    .example('$0 recall "can I merge the mobile branch this week?"', 'print the memories that bear on it')
    .example('$0 recall --hook', 'in .claude/settings.json under hooks.UserPromptSubmit');
}

export function handler(args: ArgumentsCamelCase<RecallCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../recall/command.js')).runRecallCommand);
}
