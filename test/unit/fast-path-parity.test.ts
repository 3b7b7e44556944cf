import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Argv } from 'yargs';
import { describe, expect, test } from 'vitest';
import { program } from '../../src/cmd/program.js';
import { recall } from '../../src/cmd/table/recall.js';
import { fastPaths, TABLES } from '../../src/cmd/table/index.js';
import { GLOBAL_FLAGS, camelCase, type CommandTable, type FlagSpec, type Flags } from '../../src/shell/command-table.js';
import { parseFastArgs } from '../../src/shell/hook-args.js';
import { commandOptions } from '../../src/shell/options.js';
import { repoRoot } from '../helpers/run-cli.js';

// The CommonJS build of yargs, as the CLI bundle loads it.
const yargs = createRequire(import.meta.url)('yargs') as (args: string[]) => Argv;

type Outcome = { accepted: true; args: Record<string, unknown> } | { accepted: false; error: string };

/** What the full CLI makes of a command line with `table` as its only command: the handler's arguments, or the usage error. */
async function fullCli(table: CommandTable, argv: readonly string[]): Promise<Outcome> {
  let args: Record<string, unknown> | undefined;
  const module = { command: table.command, describe: table.describe, builder: commandOptions(table), handler: (parsed: Record<string, unknown>) => void (args = parsed) };
  try {
    await program(yargs, [...argv], [module])
      .exitProcess(false)
      .parseAsync();
  } catch (error) {
    return { accepted: false, error: (error as Error).message };
  }
  return args ? { accepted: true, args } : { accepted: false, error: 'the handler did not run' };
}

/** Values for a flag that takes one: valid ones first, then those the full CLI refuses or reads its own way. */
function candidateValues(spec: FlagSpec): string[] {
  const odd = ['', '-dash', '"quoted"', "'single'", 'a=b', ' spaced '];
  if (spec.choices) return [...spec.choices, 'nope', spec.choices[0]!.toUpperCase(), ...odd];
  if (spec.type === 'number') return ['1', '2', '0', '3.5', '1.0', '007', '24', '1e1', '0x10', '-1', '-0', 'abc', 'NaN', 'Infinity', ...odd];
  return ['value', '/tmp/memory dir', 'C:\\memory', 'ünïcode', '1', ...odd];
}

/** Every way a command line may write `name`: each form, valid and not, given once, twice or with its value missing. */
function flagLines(name: string, spec: FlagSpec): string[][] {
  const names = [`--${name}`, ...(spec.alias ? [`-${spec.alias}`] : [])];
  if (spec.type === 'boolean') {
    return names.flatMap((flag) => [[flag], [flag, flag], [`--no-${name}`], [`--no-${name}`, flag], [flag, `--no-${name}`], [`${flag}=true`], [`${flag}=false`], [flag, 'extra']]);
  }
  const values = candidateValues(spec);
  return names.flatMap((flag) => [[flag], [flag, '--quiet'], ...values.flatMap((value) => [[flag, value], [`${flag}=${value}`], [flag, value, flag, value], [`${flag}=${value}`, flag, values[0]!]])]);
}

/** Command lines for `table`, built from the table itself: every flag, unknown ones, positionals, and the combinations hooks write. */
function commandLines(table: CommandTable): string[][] {
  const base = table.fastPath?.when === 'hook' ? [table.name, '--hook'] : [table.name];
  const flags: [string, FlagSpec][] = [...Object.entries(GLOBAL_FLAGS as Flags), ...Object.entries(table.flags)];
  const lines: string[][] = [[table.name], base, [...base, '--hook'], [...base, '--no-hook'], [table.name, '--hook=true']];
  for (const [name, spec] of flags) {
    for (const written of flagLines(name, spec)) lines.push([...base, ...written], [table.name, ...written, ...base.slice(1)]);
    lines.push([...base, `--${camelCase(name)}`, ...(spec.type === 'boolean' ? [] : [candidateValues(spec)[0]!])]);
  }
  for (const extra of [['extra'], ['-'], ['--'], ['--', 'extra'], ['--bogus'], ['--bogus=1'], ['-z'], ['-qz'], ['--dir', 'a', 'extra'], ['pull'], ['push']]) lines.push([...base, ...extra]);
  // Every flag the fast path reads, each with its first valid value, in one line.
  const fastFlags = flags.filter(([name, spec]) => spec.fast || table.fastPath?.globals?.includes(name as never));
  lines.push([...base, ...fastFlags.flatMap(([name, spec]) => (spec.type === 'boolean' ? [`--${name}`] : [`--${name}`, candidateValues(spec)[0]!]))]);
  return lines;
}

/**
 * Each command line of `table` through both parsers. The fast path may leave a line to the full CLI;
 * it must never take one the full CLI refuses, nor read a value differently from it.
 */
async function checkParity(table: CommandTable): Promise<{ lines: number; taken: string[][] }> {
  const lines = commandLines(table);
  const taken: string[][] = [];
  for (const argv of lines) {
    const fast = parseFastArgs(table, argv) as Record<string, unknown> | undefined;
    if (!fast) continue;
    taken.push(argv);
    const full = await fullCli(table, argv);
    expect(full, argv.join(' ')).toMatchObject({ accepted: true });
    if (!full.accepted) continue;
    for (const [key, value] of Object.entries(fast)) expect(full.args[key], `${argv.join(' ')}: ${key}`).toEqual(value);
  }
  return { lines: lines.length, taken };
}

const withFastPath = TABLES.filter((table) => table.fastPath);

describe('every fast path accepts only what the full CLI accepts, and reads it the same', () => {
  test.each(withFastPath.map((table) => [table.name, table] as const))('%s', async (_, table) => {
    const { lines, taken } = await checkParity(table);
    expect(lines).toBeGreaterThan(100);
    // Not a fast path that declines everything: it takes each flag it reads, in each plain form.
    for (const [name, spec] of [...Object.entries(GLOBAL_FLAGS as Flags), ...Object.entries(table.flags)]) {
      if (!spec.fast && !table.fastPath?.globals?.includes(name as never)) continue;
      expect(
        taken.some((argv) => argv.includes(`--${name}`) && argv.length <= 4),
        `--${name}`,
      ).toBe(true);
    }
    if (table.fastPath?.when === 'hook') expect(parseFastArgs(table, [table.name])).toBeUndefined();
  });
});

test('a flag added to a table reaches yargs and the fast path, and the parity holds for it', async () => {
  const flags = {
    ...recall.flags,
    'max-bytes': { type: 'number', min: 1, fast: true, describe: 'at most this many bytes of memories' },
    explain: { type: 'boolean', describe: 'say why each memory was chosen' },
  } satisfies Flags;
  const table = { ...recall, flags } satisfies CommandTable;
  const line = ['recall', '--hook', '--max-bytes', '300'];
  expect(parseFastArgs(table, line)).toMatchObject({ maxBytes: 300, hook: true });
  expect(await fullCli(table, line)).toMatchObject({ accepted: true, args: { maxBytes: 300 } });
  // Not read by the fast path: the full CLI takes the line.
  expect(parseFastArgs(table, ['recall', '--hook', '--explain'])).toBeUndefined();
  expect(await fullCli(table, ['recall', '--hook', '--explain'])).toMatchObject({ accepted: true, args: { explain: true } });
  expect(await fullCli(table, ['recall', '--hook', '--max-bytes', '0'])).toMatchObject({ accepted: false, error: expect.stringContaining('--max-bytes') });
  await checkParity(table);
  // Without it, both refuse or hand over.
  expect(parseFastArgs(recall, line)).toBeUndefined();
  expect(await fullCli(recall, line)).toMatchObject({ accepted: false });
});

test('the fast-path bundles and bin/memdir.cjs list come from the tables', () => {
  const fastEntries = fs.readdirSync(path.join(repoRoot, 'src/fast')).map((file) => file.replace(/\.ts$/, ''));
  expect(fastEntries.sort()).toEqual(withFastPath.map((table) => table.name).sort());
  expect(fastPaths()).toEqual(Object.fromEntries(withFastPath.map((table) => [table.name, table.fastPath?.when === 'hook' ? '--hook' : ''])));
  expect(JSON.parse(fs.readFileSync(path.join(repoRoot, 'dist/fast-paths.json'), 'utf8'))).toEqual(fastPaths());
  for (const name of Object.keys(fastPaths())) expect(fs.existsSync(path.join(repoRoot, `dist/fast/${name}.cjs`)), name).toBe(true);
});
