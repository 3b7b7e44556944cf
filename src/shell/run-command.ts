import type { GlobalArgs } from './options.js';
import type { Output } from './output.js';

type Runner<A> = (options: A, output: Output) => Promise<number>;

/**
 * What every command handler does: load the feature on demand (so `memdir
 * where` never loads what `memdir lint` needs), run it, set the exit code.
 */
export async function runCommand<A extends GlobalArgs>(args: A, load: () => Promise<Runner<A>>): Promise<void> {
  const [{ createOutput }, run] = await Promise.all([import('./output.js'), load()]);
  process.exitCode = await run(args, createOutput(args));
}
