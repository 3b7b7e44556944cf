import { resolveChecked, type GlobalArgs } from '../shell/options.js';
import { endQuietlyWhenReaderLeaves, type Output } from '../shell/output.js';
import { reportError } from '../shell/report-error.js';
import { runCommand } from '../shell/run-command.js';
import { describeResolution } from '../store/describe.js';
import { leaveDeletedWorkingDirectory } from '../store/cwd.js';

export type WhereOptions = GlobalArgs;

/** `memdir where`: the directory, and (on stderr, or in --json) how it was found. */
export async function runWhere(options: WhereOptions, output: Output): Promise<number> {
  const resolution = resolveChecked(options, output);
  if (options.json) output.json(describeResolution(resolution));
  else {
    output.out(resolution.dir);
    output.info(output.colors.dim(describeResolution(resolution).how));
  }
  return 0;
}

/** `memdir where` answered without yargs (src/fast/where.ts): scripts and shell prompts call it. */
export function takeFastPath(options: WhereOptions): boolean {
  endQuietlyWhenReaderLeaves();
  leaveDeletedWorkingDirectory();
  void runCommand(options, async () => runWhere).catch((error: unknown) => reportError(error, options));
  return true;
}
