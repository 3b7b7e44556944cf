import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { GlobalArgs } from '../shell/options.js';

export const command = 'where';
export const describe = 'Print the memory directory and how it was resolved';

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .example('$0 where', 'print the directory Claude Code uses for this repository')
    .example('$0 where --json', 'also say which rule and which settings file decided it');
}

export async function handler(args: ArgumentsCamelCase<GlobalArgs>): Promise<void> {
  const { createOutput } = await import('../shell/output.js');
  const { resolveFor } = await import('../shell/options.js');
  const { describeResolution } = await import('../store/describe.js');
  const output = createOutput(args);
  const resolution = resolveFor(args, output);
  if (args.json) {
    output.json(describeResolution(resolution));
    return;
  }
  output.out(resolution.dir);
  output.info(output.colors.dim(describeResolution(resolution).how));
}
