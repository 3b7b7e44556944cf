import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { LintCommandOptions } from '../lint/command.js';
import { wholeNumber, type GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'lint [paths..]';
export const describe = 'Check memory directories and files; --fix applies safe fixes';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .positional('paths', { type: 'string', array: true, default: [], describe: 'memory directories or files (default: the resolved directory)' })
    .option('fix', { type: 'boolean', default: false, describe: 'apply safe, deterministic fixes' })
    .option('fix-dry-run', { type: 'boolean', default: false, describe: 'print the fixes as a diff, change nothing' })
    .option('format', { alias: 'f', type: 'string', default: 'stylish', choices: ['stylish', 'json', 'sarif'], describe: 'output format' })
    .option('output-file', { alias: 'o', type: 'string', describe: 'write the report to a file instead of stdout' })
    .option('max-warnings', { type: 'number', default: -1, coerce: wholeNumber('--max-warnings', -1), describe: 'exit 1 when there are more warnings than this (-1: no limit)' })
    .option('staged', { type: 'boolean', default: false, describe: 'lint the memory files staged in git (their staged content)' })
    .option('all-in-repo', { type: 'boolean', default: false, describe: 'lint every .claude/memory/ folder in the repository' })
    .option('anchor-date', { type: 'string', describe: 'anchor (YYYY-MM-DD) for relative dates in files with no date of their own' })
    .option('config', { alias: 'c', type: 'string', describe: 'config file (default: memdir.config.json or package.json "memdir")' })
    .example('$0 lint', "lint this project's memory directory")
    .example('$0 lint --fix', 'fix relative dates, missing and dead pointers')
    .example('$0 lint --fix --anchor-date 2026-03-02', 'rewrite relative dates in files with no date of their own as of that day')
    .example('$0 lint --staged', 'in a git pre-commit hook')
    .example('$0 lint --all-in-repo --format sarif -o memdir.sarif', 'in CI, for code scanning');
}

export function handler(args: ArgumentsCamelCase<LintCommandOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../lint/command.js')).runLintCommand);
}
