import path from 'node:path';
import { loadConfig } from '../config/find.js';
import { validateConfig as validateAgainst, type ConfigurableRule, type LintConfig, type MemdirConfig } from '../config/validate.js';
import { RULES } from './rules/index.js';
import { runLint, type LintResult } from './run.js';

export interface LintOptions {
  /** Memory directories to lint. */
  dirs: string[];
  fix?: boolean;
  /** With fix: compute the fixes (as diffs) without writing. */
  dryRun?: boolean;
  /** Configuration to use; default: memdir.config.json or package.json "memdir" found as the CLI finds it. */
  config?: LintConfig;
  cwd?: string;
}

/** `memdir lint` as a function: results per directory, findings with rule ids, lines and fixes. */
export function lint(options: LintOptions): Promise<LintResult[]> {
  const cwd = options.cwd ?? process.cwd();
  return runLint(
    options.dirs.map((dir) => ({ dir: path.resolve(cwd, dir) })),
    { config: (dir) => options.config ?? loadConfig({ dir, cwd, sections: [] }).config, fix: options.fix, dryRun: options.dryRun },
  );
}

/** A parsed memdir.config.json (or package.json "memdir") checked as every command checks it: by default against memdir's own rules. */
export function validateConfig(value: unknown, file: string, rules: readonly ConfigurableRule[] = RULES): MemdirConfig {
  return validateAgainst(value, file, rules);
}
