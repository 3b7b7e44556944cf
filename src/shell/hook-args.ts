/**
 * The command lines hooks use (`memdir <command> --hook [--dir D] …`), read without yargs so the
 * hook fast paths start without the CLI. Anything else gives undefined: the full CLI then parses
 * it, with its checks and messages.
 */
export interface HookArgs {
  values: Record<string, string>;
  switches: Set<string>;
  quiet: boolean;
  trustProjectSettings: boolean;
}

const COMMON_VALUE_FLAGS = ['--dir'];
const COMMON_SWITCHES = ['--hook', '--quiet', '-q', '--trust-project-settings', '--no-color', '--color'];

export function parseHookArgs(argv: readonly string[], command: string, valueFlags: readonly string[] = [], switchFlags: readonly string[] = []): HookArgs | undefined {
  if (!argv.includes('--hook')) return undefined;
  return parsePlainArgs(argv, command, valueFlags, switchFlags);
}

/** The same reading for a plain command line a fast path answers (`memdir sync`), `--hook` or not. */
export function parsePlainArgs(argv: readonly string[], command: string, valueFlags: readonly string[] = [], switchFlags: readonly string[] = []): HookArgs | undefined {
  if (argv[0] !== command) return undefined;
  const valueSet = new Set([...COMMON_VALUE_FLAGS, ...valueFlags]);
  const switchSet = new Set([...COMMON_SWITCHES, ...switchFlags]);
  const values: Record<string, string> = {};
  const switches = new Set<string>();
  for (let i = 1; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    if (switchSet.has(flag) && inline === undefined) switches.add(flag);
    else if (valueSet.has(flag) && !(flag in values)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '' || (inline === undefined && value.startsWith('-'))) return undefined;
      values[flag] = value;
    } else return undefined;
  }
  return { values, switches, quiet: switches.has('--quiet') || switches.has('-q'), trustProjectSettings: switches.has('--trust-project-settings') };
}
