import { renderTemplate } from '../store/templates.js';
import type { GlobalArgs } from './options.js';
import type { Output } from './output.js';

export interface CompletionOptions extends GlobalArgs {
  shell?: 'bash' | 'zsh' | undefined;
}

/**
 * `memdir completion [bash|zsh]`: the script that, at each Tab, asks memdir which words fit
 * (yargs answers `--get-yargs-completions` from the same command definitions as --help).
 */
export async function runCompletion(args: CompletionOptions, output: Output): Promise<number> {
  const shell = args.shell ?? (/zsh/.test(process.env.SHELL ?? '') ? 'zsh' : 'bash');
  output.document(renderTemplate(`completion/memdir.${shell}`, {}));
  return 0;
}
