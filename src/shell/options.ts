import type { Argv } from 'yargs';
import { UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { loadConfig } from '../config/find.js';
import { workingDirectory } from '../store/cwd.js';
import { resolveMemoryDir, type Resolution } from '../store/resolve.js';
import type { Output } from './output.js';

/** Options every command takes (docs/architecture.md#commands-and-exit-codes). */
export interface GlobalArgs {
  dir?: string | undefined;
  json: boolean;
  quiet: boolean;
  color: boolean | undefined;
  debug: boolean;
  trustProjectSettings: boolean;
}

export function globalOptions<T>(cli: Argv<T>) {
  return cli
    .option('dir', { type: 'string', describe: 'memory directory (default: the one Claude Code uses for this project)' })
    .option('json', { type: 'boolean', default: false, describe: 'machine-readable output on stdout' })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'print only results and errors' })
    .option('color', { type: 'boolean', describe: 'colour output (--no-color or NO_COLOR to disable)' })
    .option('debug', { type: 'boolean', default: false, describe: 'show stack traces on errors' })
    .option('trust-project-settings', {
      type: 'boolean',
      default: false,
      describe:
        "honour what the project's committed files may not set alone: autoMemoryDirectory in .claude/settings.json; commands, URLs, remotes, backends and engines in memdir.config.json or package.json",
    })
    .group(['dir', 'json', 'quiet', 'color', 'debug', 'trust-project-settings', 'help', 'version'], 'Global options:');
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
