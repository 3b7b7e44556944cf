import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { GlobalArgs } from '../shell/options.js';

export const command = 'save';
export const describe = 'Write one memory: its topic file and its pointer in MEMORY.md, in one atomic step';

interface SaveArgs extends GlobalArgs {
  type: string;
  name: string;
  description: string;
  body?: string;
}

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .option('type', { type: 'string', demandOption: true, describe: 'user | feedback | project | reference' })
    .option('name', { type: 'string', demandOption: true, describe: 'short title; saving the same name again updates it' })
    .option('description', { type: 'string', demandOption: true, describe: 'one line that says when this memory is relevant' })
    .option('body', { type: 'string', describe: 'the memory text (default: read from stdin)' })
    .example(
      '$0 save --type feedback --name "Terse replies" --description "User wants no recap at the end of responses" --body "Skip the trailing summary."',
      'save a feedback memory',
    )
    .example('git log -1 --format=%B | $0 save --type project --name "Merge freeze" --description "No merges to main until 2026-03-05"', 'body from stdin');
}

export async function handler(args: ArgumentsCamelCase<SaveArgs>): Promise<void> {
  const { createOutput } = await import('../shell/output.js');
  const { resolveFor } = await import('../shell/options.js');
  const { readStdin } = await import('../shell/stdin.js');
  const { saveMemory } = await import('../store/memory-store.js');
  const output = createOutput(args);
  const resolution = resolveFor(args, output);
  const body = args.body ?? (await readStdin());
  const result = await saveMemory(resolution.dir, {
    type: args.type,
    name: args.name,
    description: args.description,
    body,
  });
  if (args.json) {
    output.json(result);
    return;
  }
  output.out(`${result.created ? 'saved' : 'updated'} ${result.file}`);
  output.info(output.colors.dim(`in ${result.dir}`));
}
