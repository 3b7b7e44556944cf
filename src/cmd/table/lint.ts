import type { CommandTable } from '../../shell/command-table.js';

export const lint = {
  name: 'lint',
  command: 'lint [paths..]',
  describe: 'Check memory directories and files; --fix applies safe fixes',
  positionals: { paths: { type: 'string', array: true, default: [], describe: 'memory directories or files (default: the resolved directory)' } },
  flags: {
    fix: { type: 'boolean', default: false, describe: 'apply safe, deterministic fixes' },
    'fix-dry-run': { type: 'boolean', default: false, describe: 'print the fixes as a diff, change nothing' },
    format: { alias: 'f', type: 'string', default: 'stylish', choices: ['stylish', 'json', 'sarif'], describe: 'output format' },
    'output-file': { alias: 'o', type: 'string', describe: 'write the report to a file instead of stdout' },
    'max-warnings': { type: 'number', default: -1, min: -1, describe: 'exit 1 when there are more warnings than this (-1: no limit)' },
    staged: { type: 'boolean', default: false, describe: 'lint the memory files staged in git (their staged content)' },
    'all-in-repo': { type: 'boolean', default: false, describe: 'lint every .claude/memory/ folder in the repository' },
    'anchor-date': { type: 'string', describe: 'anchor (YYYY-MM-DD) for relative dates in files with no date of their own' },
    config: { alias: 'c', type: 'string', describe: 'config file (default: memdir.config.json or package.json "memdir")' },
  },
  examples: [
    ['$0 lint', "lint this project's memory directory"],
    ['$0 lint --fix', 'fix relative dates, missing and dead pointers'],
    ['$0 lint --fix --anchor-date 2026-03-02', 'rewrite relative dates in files with no date of their own as of that day'],
    ['$0 lint --staged', 'in a git pre-commit hook'],
    ['$0 lint --all-in-repo --format sarif -o memdir.sarif', 'in CI, for code scanning'],
  ],
} as const satisfies CommandTable;
