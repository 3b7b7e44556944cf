import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { CompletionOptions } from '../shell/completion.js';
import type { GlobalArgs } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';

export const command = 'completion [shell]';
export const describe = 'Print a shell completion script (bash or zsh)';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .positional('shell', { type: 'string', choices: ['bash', 'zsh'] as const, describe: 'the shell (default: zsh when $SHELL is zsh, else bash)' })
    .example('source <($0 completion bash)', 'in ~/.bashrc: Tab completes commands, options and choices')
    .example('source <($0 completion zsh)', 'in ~/.zshrc, after compinit');
}

export function handler(args: ArgumentsCamelCase<CompletionOptions>): Promise<void> {
  return runCommand(args, async () => (await import('../shell/completion.js')).runCompletion);
}
