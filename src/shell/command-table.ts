/**
 * A command's command line, declared once (`src/cmd/table/<command>.ts`): the full CLI builds its
 * yargs options from it (`commandOptions`), the hook fast paths read their command lines with it
 * (`parseFastArgs`), and the build derives the fast-path bundles and bin's list of them. Plain data:
 * the fast bundles import it without yargs.
 */

export interface FlagSpec {
  type: 'boolean' | 'string' | 'number';
  describe: string;
  alias?: string;
  choices?: readonly string[];
  default?: boolean | string | number;
  /** A whole number of at least this; anything else is a usage error naming the flag. */
  min?: number;
  hidden?: boolean;
  demandOption?: boolean;
  /**
   * The fast path reads this flag. A command line with a flag the fast path does not read goes to
   * the full CLI, so a flag added without this mark is still honoured, only more slowly.
   */
  fast?: boolean;
}

export interface PositionalSpec {
  type: 'string';
  describe: string;
  array?: boolean;
  choices?: readonly string[];
  default?: readonly string[];
  demandOption?: boolean;
}

export type Flags = Readonly<Record<string, FlagSpec>>;

export interface CommandTable {
  /** The command's name: `memdir <name>`, `src/fast/<name>.ts`, `dist/fast/<name>.cjs`. */
  name: string;
  /** yargs' command string: the name and its positionals (`recall [query..]`). */
  command: string;
  describe: string;
  positionals?: Readonly<Record<string, PositionalSpec>>;
  flags: Flags;
  examples?: readonly (readonly [string, string])[];
  /**
   * The command has a fast path (`src/fast/<name>.ts`), loaded by bin/memdir.cjs for command lines
   * with `--hook` (`'hook'`) or for every command line (`'always'`); it reads the flags marked
   * `fast` (and the global ones so marked, with `globals` those it reads besides).
   */
  fastPath?: { when: 'hook' | 'always'; globals?: readonly GlobalFlag[] };
}

/** Options every command takes (docs/architecture.md#commands-and-exit-codes). */
export const GLOBAL_FLAGS = {
  dir: { type: 'string', fast: true, describe: 'memory directory (default: the one Claude Code uses for this project)' },
  json: { type: 'boolean', default: false, describe: 'machine-readable output on stdout' },
  quiet: { alias: 'q', type: 'boolean', default: false, fast: true, describe: 'print only results and errors' },
  color: { type: 'boolean', fast: true, describe: 'colour output (--no-color or NO_COLOR to disable)' },
  debug: { type: 'boolean', default: false, describe: 'show stack traces on errors' },
  'trust-project-settings': {
    type: 'boolean',
    default: false,
    fast: true,
    describe:
      "honour what the project's committed files may not set alone: autoMemoryDirectory in .claude/settings.json; commands, URLs, remotes, backends and engines in memdir.config.json or package.json",
  },
} as const satisfies Flags;

export type GlobalFlag = keyof typeof GLOBAL_FLAGS;

/** `trust-project-settings` → `trustProjectSettings`, as yargs names the parsed value. */
export type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

export const camelCase = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

type FlagValue<F> = F extends { type: 'boolean' } ? boolean : F extends { type: 'number' } ? number : F extends { choices: readonly (infer C)[] } ? C : string;

/** The values of a table's flags as parsed: camel-cased names; a flag with no default may be absent. */
export type FlagValues<T extends Flags> = {
  -readonly [K in keyof T & string as T[K] extends { default: unknown } ? CamelCase<K> : never]: FlagValue<T[K]>;
} & {
  -readonly [K in keyof T & string as T[K] extends { default: unknown } ? never : CamelCase<K>]?: FlagValue<T[K]> | undefined;
};
