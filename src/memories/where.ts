import { resolveFor, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { describeResolution } from '../store/describe.js';

export type WhereOptions = GlobalArgs;

/** `memdir where`: the directory, and (on stderr, or in --json) how it was found. */
export async function runWhere(options: WhereOptions, output: Output): Promise<number> {
  const resolution = resolveFor(options, output);
  if (options.json) output.json(describeResolution(resolution));
  else {
    output.out(resolution.dir);
    output.info(output.colors.dim(describeResolution(resolution).how));
  }
  return 0;
}
