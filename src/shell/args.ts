import { UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';

/** What yargs knows of a command's options (`Argv.getOptions()`). */
export interface OptionTable {
  string: string[];
  number: string[];
  array: string[];
  alias: Record<string, string[]>;
}

const NEGATIVE_NUMBER = /^-\.?\d/;

/**
 * Mistakes with option values that yargs cannot see, each one line:
 * - a value that starts with "-" after a space is read as flags (`--name -dashname`
 *   holds `-h`, so help would print and exit 0): say to write `--name=-dashname`;
 * - an option that takes one value, given twice, would arrive as a list.
 */
export function checkOptionValues(options: OptionTable, args: string[]): void {
  const canonical = new Map<string, string>();
  for (const key of [...options.string, ...options.number]) {
    if (options.array.includes(key)) continue;
    for (const name of [key, ...(options.alias[key] ?? [])]) canonical.set(name, key);
  }
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return;
    const [, name, inlineValue] = /^--?([^=-][^=]*)(=.*)?$/.exec(arg) ?? [];
    const key = name === undefined ? undefined : canonical.get(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
    if (key === undefined) continue;
    const flag = arg.replace(/=.*/s, '');
    if (seen.has(key)) throw new UsageError(messages.givenTwice(flag));
    seen.add(key);
    if (inlineValue !== undefined) continue;
    const next = args[i + 1];
    if (next === undefined || (next.startsWith('-') && next !== '-' && !NEGATIVE_NUMBER.test(next))) throw new UsageError(messages.needsValue(flag, next));
    i++;
  }
}

/** The value of a boolean flag as given (`--json`, `--json=false`, `--no-json`; the last wins), before yargs has parsed anything. */
export function flagGiven(args: string[], name: string): boolean {
  let value = false;
  for (const arg of args) {
    if (arg === '--') break;
    if (arg === `--${name}` || arg === `--${name}=true`) value = true;
    else if (arg === `--no-${name}` || arg === `--${name}=false`) value = false;
  }
  return value;
}
