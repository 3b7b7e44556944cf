import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pkg from '../../package.json' with { type: 'json' };
import { parseCalendarDay } from '../core/dates.js';
import { displayPath } from '../core/paths.js';
import { ExitCode, UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { resolveFor, type GlobalArgs } from '../shell/options.js';
import { createOutput, type Output } from '../shell/output.js';
import { writeReportAtomic } from '../store/atomic.js';
import { absolutePath, requireWorkingDirectory, workingDirectory } from '../store/cwd.js';
import { findGitRoot } from '../store/git-root.js';
import { loadConfig, type LoadedConfig } from '../config/find.js';
import { FORMATTERS, type FormatContext } from './formatters/index.js';
import { RULES } from './rules/index.js';
import { runLint, type LintResult, type LintTarget } from './run.js';
import { pathTargets, repoTargets, stagedTargets } from './targets.js';

/** docs/rules/ of the installed package, as a file URI (the pages ship with it). */
function docsBase(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return pathToFileURL(path.join(dir, 'docs/rules')).href;
}

/** How reports name files: relative to `cwd`, or in full when there is no working directory. */
export function formatContext(cwd: string | undefined, colors: FormatContext['colors']): FormatContext {
  const base = docsBase();
  return {
    display: (dir, file) => (cwd === undefined ? path.join(dir, file) : displayPath(path.join(dir, file), cwd)),
    artifactUri: (dir, file) => {
      const absolute = path.join(dir, file);
      const root = findGitRoot(dir);
      if (root) return { uri: path.relative(root, absolute).split(path.sep).join('/'), uriBaseId: '%SRCROOT%' };
      return { uri: pathToFileURL(absolute).href };
    },
    rules: RULES,
    docsUri: (rule) => `${base}/${rule.id}.md`,
    colors,
    toolVersion: pkg.version,
  };
}

export function exitCodeFor(results: LintResult[], maxWarnings: number): number {
  const findings = results.flatMap((r) => r.findings);
  if (findings.some((f) => f.severity === 'error')) return ExitCode.findings;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  return maxWarnings >= 0 && warnings > maxWarnings ? ExitCode.findings : ExitCode.ok;
}

export interface LintCommandOptions extends GlobalArgs {
  paths: string[];
  fix: boolean;
  fixDryRun: boolean;
  format: string;
  outputFile?: string | undefined;
  maxWarnings: number;
  staged: boolean;
  allInRepo: boolean;
  config?: string | undefined;
  anchorDate?: string | undefined;
}

/** `memdir lint`: the report on stdout (or --output-file); exit 1 on errors or too many warnings. */
export async function runLintCommand(args: LintCommandOptions, output: Output): Promise<number> {
  // A deleted working directory still lets `--dir ABSOLUTE` work: config is then
  // looked up from the memory directory, and files print with their full paths.
  const cwd = workingDirectory();
  const here = () => cwd ?? requireWorkingDirectory();
  let targets: LintTarget[];
  if (args.staged) {
    const resolved = args.dir ? resolveFor(args, output).dir : undefined;
    targets = await stagedTargets(here(), resolved);
  } else if (args.allInRepo) {
    targets = repoTargets(here());
  } else if (args.paths.length > 0) {
    targets = pathTargets(args.paths, here());
  } else {
    targets = [{ dir: resolveFor(args, output).dir }];
  }
  if (args.anchorDate !== undefined && !parseCalendarDay(args.anchorDate)) throw new UsageError(messages.notADate('--anchor-date', args.anchorDate));
  const configFile = args.config === undefined || cwd !== undefined ? args.config : absolutePath(args.config);
  const configs = new Map<string, LoadedConfig>();
  const configFor = (dir: string) => {
    let found = configs.get(dir);
    if (!found) {
      // Lint reads no key a project may not set: nothing to warn about.
      found = loadConfig({ dir, cwd, explicit: configFile, trustProjectSettings: args.trustProjectSettings || undefined, sections: [] });
      if (args.anchorDate) found.config.ruleOptions.MEM016 = { ...found.config.ruleOptions.MEM016, anchorDate: args.anchorDate };
      configs.set(dir, found);
    }
    return found.config;
  };
  // Validate config before touching anything, so a bad config changes nothing.
  for (const target of targets) configFor(target.dir);

  const fix = args.fix || args.fixDryRun;
  const results = await runLint(targets, { config: configFor, fix, dryRun: args.fixDryRun });
  if (results.length === 0) output.info(messages.lintNothingToLint(targets[0] && !args.staged ? targets[0].dir : undefined));

  const format = args.json ? 'json' : args.format;
  const colors = args.outputFile || format !== 'stylish' ? createOutput({ ...args, color: false }).colors : output.colors;
  let report = FORMATTERS[format]!(results, formatContext(cwd, colors));
  const diffs = args.fixDryRun ? results.flatMap((r) => r.diffs).join('') : '';
  // stdout holds one document: with a machine format the diff goes to stderr.
  if (format === 'stylish') report = diffs + report;
  else if (diffs) output.info(diffs.trimEnd());
  if (args.outputFile) writeReportAtomic(absolutePath(args.outputFile), report, format === 'stylish' ? 'text' : 'json');
  else if (format === 'stylish') output.write(report);
  else output.document(report);
  return exitCodeFor(results, args.maxWarnings);
}
