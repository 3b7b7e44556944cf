import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { ExtractCommandOptions } from '../extract/command.js';
import { wholeNumber, type GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'extract [transcript]';
export const describe = 'Turn the new part of a Claude Code transcript into memories (durable statements only)';

export function builder(cli: Argv<GlobalArgs>) {
  return (
    cli
      // yargs reads a lone "-" as a positional (and leaves --from empty): it lands here.
      .positional('transcript', { type: 'string', describe: 'same as --from' })
      .option('from', { type: 'string', describe: 'transcript JSONL file, or - for stdin' })
      .option('hook', { type: 'boolean', default: false, describe: 'answer a Claude Code Stop hook at once and extract in the background' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'print the operations; change nothing (the cursor stays)' })
      .option('engine', {
        type: 'string',
        choices: ['auto', 'local', 'claude'] as const,
        describe: 'local rules, or one structured call to Claude (default: extract.engine, else auto = claude when ANTHROPIC_API_KEY is set)',
      })
      .option('model', { type: 'string', describe: 'model for --engine claude' })
      .option('every', { type: 'number', coerce: wholeNumber('--every', 1), describe: 'extract only once N new user turns have gathered (default: extract.every, else 1)' })
      .option('explicit-only', {
        type: 'boolean',
        describe: 'local engine: only explicit requests to remember, nothing inferred (default: extract.explicitOnly, else true in the runs the Stop hook starts and false by hand)',
      })
      .option('session-id', { type: 'string', hidden: true, describe: 'session whose cursor to use (the hook passes it on)' })
      .option('after-stop', { type: 'boolean', hidden: true, describe: 'started by the Stop hook: wait briefly for a transcript not created yet' })
      .example('$0 extract --from ~/.claude/projects/-home-me-app/SESSION.jsonl', 'save what the user asked to remember')
      .example('$0 extract --hook', 'in .claude/settings.json under hooks.Stop')
  );
}

export function handler(args: ArgumentsCamelCase<ExtractCommandOptions & { transcript?: string }>): Promise<void> {
  // yargs turns a lone "-" into an empty string: `--from -` means stdin.
  const from = args.from || args.transcript || (process.argv.includes('-') ? '-' : undefined);
  return runCommand({ ...args, from }, async () => (await import('../extract/command.js')).runExtract);
}
