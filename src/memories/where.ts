import { parsePlainArgs } from '../shell/hook-args.js';
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

/**
 * `memdir where` with only global flags, answered without yargs (scripts and shell prompts call it);
 * false for anything else, `--help` included: the full CLI parses it, with its checks and messages.
 */
export function tryFastPath(argv: readonly string[]): boolean {
  const args = parsePlainArgs(argv, 'where', [], ['--json', '--debug']);
  if (!args || args.switches.has('--hook')) return false;
  const color = args.switches.has('--color') ? true : args.switches.has('--no-color') ? false : undefined;
  const options: WhereOptions = {
    dir: args.values['--dir'],
    json: args.switches.has('--json'),
    quiet: args.quiet,
    color,
    debug: args.switches.has('--debug'),
    trustProjectSettings: args.trustProjectSettings,
  };
  endQuietlyWhenReaderLeaves();
  leaveDeletedWorkingDirectory();
  void runCommand(options, async () => runWhere).catch((error: unknown) => reportError(error, options));
  return true;
}
