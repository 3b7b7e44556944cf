import { camelCase, GLOBAL_FLAGS, type CommandTable, type FlagSpec, type Flags, type FlagValues } from './command-table.js';

/** A fast path's command line as the full CLI would parse it: the command's and the global flags. */
export type FastArgs<T extends Flags> = FlagValues<T> & FlagValues<typeof GLOBAL_FLAGS>;

/** A number as hooks write one; yargs reads more forms (`1e3`, `0x10`), which the full CLI then takes. */
const NUMBER = /^\d+(?:\.\d+)?$/;

/** What a written flag (`--limit`, `-q`, `--no-color`) sets: the flag's name and spec, and a switch's value. */
type Reading = { name: string; spec: FlagSpec; switchValue?: boolean };

function readings(table: CommandTable): Map<string, Reading> {
  const globals = new Set<string>(table.fastPath?.globals);
  const flags: [string, FlagSpec][] = [
    ...Object.entries(GLOBAL_FLAGS as Flags).filter(([name, spec]) => spec.fast || globals.has(name)),
    ...Object.entries(table.flags).filter(([, spec]) => spec.fast),
  ];
  const map = new Map<string, Reading>();
  for (const [name, spec] of flags) {
    const boolean = spec.type === 'boolean';
    map.set(`--${name}`, boolean ? { name, spec, switchValue: true } : { name, spec });
    if (spec.alias) map.set(`-${spec.alias}`, boolean ? { name, spec, switchValue: true } : { name, spec });
    if (boolean) map.set(`--no-${name}`, { name, spec, switchValue: false });
  }
  return map;
}

/** The value of a flag that takes one, as the full CLI would accept it; undefined when the fast path leaves the judgement to it. */
function flagValue(spec: FlagSpec, value: string): string | number | undefined {
  // yargs takes the quotes off a quoted value (`'"x"'` is x): such values are the full CLI's to read.
  if (value === '' || /^["']/.test(value)) return undefined;
  if (spec.choices && !spec.choices.includes(value)) return undefined;
  if (spec.type !== 'number') return value;
  if (!NUMBER.test(value)) return undefined;
  const number = Number(value);
  return spec.min !== undefined && !(Number.isInteger(number) && number >= spec.min) ? undefined : number;
}

/**
 * The command lines hooks use (`memdir recall --hook --dir D …`), read with the command's table and
 * without yargs, so the fast paths start without the CLI: the command's name, then only flags its
 * fast path reads, in the plain forms (`--flag value`, `--flag=value`, `--switch`, `--no-switch`, an
 * alias), each value valid and given once, and `--hook` when the fast path takes only hooks. The
 * values are those the full CLI would parse, defaults included. Anything else gives undefined: the
 * full CLI then parses it, with its checks and messages.
 */
export function parseFastArgs<T extends Flags>(table: CommandTable & { flags: T }, argv: readonly string[]): FastArgs<T> | undefined {
  if (argv[0] !== table.name || !table.fastPath) return undefined;
  const known = readings(table);
  const values: Record<string, string | number | boolean | undefined> = {};
  for (const [name, spec] of [...Object.entries(GLOBAL_FLAGS as Flags), ...Object.entries(table.flags)]) values[camelCase(name)] = spec.default;
  const given = new Set<string>();
  for (let i = 1; i < argv.length; i++) {
    const [written, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const reading = known.get(written);
    if (!reading) return undefined;
    const key = camelCase(reading.name);
    if (reading.switchValue !== undefined) {
      if (inline !== undefined) return undefined;
      values[key] = reading.switchValue;
      continue;
    }
    if (given.has(key) || (inline !== undefined && !written.startsWith('--'))) return undefined;
    given.add(key);
    const raw = inline ?? argv[++i];
    if (raw === undefined || (inline === undefined && raw.startsWith('-'))) return undefined;
    const value = flagValue(reading.spec, raw);
    if (value === undefined) return undefined;
    values[key] = value;
  }
  if (table.fastPath.when === 'hook' && values.hook !== true) return undefined;
  return values as FastArgs<T>;
}

/**
 * A fast path's `tryFastPath(argv, fullCli)`, as bin/memdir.cjs calls it: `take` gets the command line
 * `parseFastArgs` read and says whether it took the command; a line it cannot read is not taken.
 */
export function fastPath<T extends Flags>(table: CommandTable & { flags: T }, take: (args: FastArgs<T>, fullCli?: () => void) => boolean) {
  return (argv: readonly string[], fullCli?: () => void): boolean => {
    const args = parseFastArgs<T>(table, argv);
    return args !== undefined && take(args, fullCli);
  };
}
