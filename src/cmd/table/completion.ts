import type { CommandTable } from '../../shell/command-table.js';

export const completion = {
  name: 'completion',
  command: 'completion [shell]',
  describe: 'Print a shell completion script (bash or zsh)',
  positionals: { shell: { type: 'string', choices: ['bash', 'zsh'], describe: 'the shell (default: zsh when $SHELL is zsh, else bash)' } },
  flags: {},
  examples: [
    ['source <($0 completion bash)', 'in ~/.bashrc: Tab completes commands, options and choices'],
    ['source <($0 completion zsh)', 'in ~/.zshrc, after compinit'],
  ],
} as const satisfies CommandTable;
