import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { GlobalArgs } from '../shell/options.js';

export const command = 'context';
export const describe = 'Print what an agent should load at session start: memory instructions and the index';

interface ContextArgs extends GlobalArgs {
  hook: boolean;
}

export function builder(cli: Argv<GlobalArgs>) {
  return cli
    .option('hook', { type: 'boolean', default: false, describe: 'answer a Claude Code SessionStart hook (JSON in, JSON out)' })
    .example('$0 context', 'show the instructions and the index as the agent loads it')
    .example('$0 context --hook', 'in .claude/settings.json under hooks.SessionStart');
}

export async function handler(args: ArgumentsCamelCase<ContextArgs>): Promise<void> {
  const { createOutput } = await import('../shell/output.js');
  const { resolveFor } = await import('../shell/options.js');
  const { sessionContext } = await import('../store/context.js');
  const output = createOutput(args);

  if (args.hook) {
    const { readHookInput, runAsHook } = await import('../shell/stdin.js');
    await runAsHook('context', async () => {
      const input = await readHookInput();
      const cwd = typeof input.cwd === 'string' ? input.cwd : undefined;
      const context = await sessionContext(resolveFor(args, output, cwd).dir);
      process.stdout.write(
        `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context.text } })}\n`,
      );
    });
    return;
  }

  const resolution = resolveFor(args, output);
  const context = await sessionContext(resolution.dir);
  if (args.json) {
    const { content, ...index } = context.index;
    output.json({ dir: resolution.dir, indexFile: context.indexFile, ...index, indexContent: content, text: context.text });
    return;
  }
  output.out(context.text.trimEnd());
  if (context.index.wasLineTruncated || context.index.wasByteTruncated) {
    output.warn(output.colors.yellow(`memdir: ${context.indexFile} is cut when loaded; run \`memdir refactor\``));
  }
}
