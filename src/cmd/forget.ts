import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { GlobalArgs } from '../shell/options.js';

export const command = 'forget <memory>';
export const describe = 'Remove one memory: its topic file and its pointer';

interface ForgetArgs extends GlobalArgs {
  memory: string;
}

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .positional('memory', { type: 'string', demandOption: true, describe: 'topic file (feedback_terse.md) or memory name' })
    .example('$0 forget feedback_terse.md', 'by file')
    .example('$0 forget "Terse replies"', 'by name');
}

export async function handler(args: ArgumentsCamelCase<ForgetArgs>): Promise<void> {
  const { createOutput } = await import('../shell/output.js');
  const { resolveFor } = await import('../shell/options.js');
  const { forgetMemory } = await import('../store/memory-store.js');
  const output = createOutput(args);
  const result = await forgetMemory(resolveFor(args, output).dir, args.memory);
  if (args.json) {
    output.json(result);
    return;
  }
  const parts = [result.removedFile ? 'file' : '', result.removedPointers ? `${result.removedPointers} pointer(s)` : ''].filter(Boolean);
  output.out(`forgot ${result.file} (${parts.join(' and ') || 'nothing left to remove'})`);
}
