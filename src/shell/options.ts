import type { Argv, PositionalOptions } from 'yargs';
import { UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { loadConfig } from '../config/find.js';
import { workingDirectory } from '../store/cwd.js';
import { GLOBAL_FLAGS, type CommandTable, type Flags, type FlagValues } from './command-table.js';
import { resolveMemoryDir, type Resolution } from '../store/resolve.js';
import type { Output } from './output.js';

/** The values of the options every command takes. */
export type GlobalArgs = FlagValues<typeof GLOBAL_FLAGS>;

/** yargs' options for `flags`, in their order. */
function flagOptions<T>(cli: Argv<T>, flags: Flags): Argv<T> {
  let built = cli;
  for (const [name, { fast, min, ...option }] of Object.entries(flags)) {
    built = built.option(name, min === undefined ? option : { ...option, coerce: wholeNumber(`--${name}`, min) });
  }
  return built;
}

export function globalOptions<T>(cli: Argv<T>): Argv<T> {
  return flagOptions(cli, GLOBAL_FLAGS).group([...Object.keys(GLOBAL_FLAGS), 'help', 'version'], 'Global options:');
}

/** A command's yargs builder, from its table: positionals, flags, then examples. */
export function commandOptions(table: CommandTable) {
  return (cli: Argv<GlobalArgs>): Argv<GlobalArgs> => {
    let built = cli;
    for (const [name, positional] of Object.entries(table.positionals ?? {})) built = built.positional(name, positional as PositionalOptions);
    built = flagOptions(built, table.flags);
    for (const [command, description] of table.examples ?? []) built = built.example(command, description);
    return built;
  };
}

/** Resolve the memory directory for a command, printing resolution warnings. */
export function resolveFor(args: GlobalArgs, output: Output, cwd?: string): Resolution {
  const resolution = resolveMemoryDir({
    dir: args.dir,
    cwd,
    trustProjectSettings: args.trustProjectSettings || undefined,
  });
  for (const warning of resolution.warnings) output.warn(warning);
  return resolution;
}

/**
 * Resolve the memory directory, for a command that reads no section of the configuration: the
 * configuration that applies there is validated all the same, so every command rejects a bad file alike.
 */
export function resolveChecked(args: GlobalArgs, output: Output): Resolution {
  const resolution = resolveFor(args, output);
  loadConfig({ dir: resolution.dir, cwd: workingDirectory(), trustProjectSettings: args.trustProjectSettings || undefined, sections: [] });
  return resolution;
}

/** yargs `coerce` for a count: a whole number of at least `min`, else one line naming the flag. */
export function wholeNumber(flag: string, min: number) {
  return (value: unknown): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new UsageError(messages.notWholeNumber(flag, min));
    return value;
  };
}
