import fs from 'node:fs';
import { UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { usableEngine, type EngineName } from '../llm/model.js';
import { resolveChecked, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { formatReport, reportJson } from './report.js';
import { runRefactor } from './run.js';

/** A calendar date YYYY-MM-DD at local noon; 2026-13-45 and 2026-02-30 are refused, not rolled over. */
function parseAnchor(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const [year, month, day] = (/^(\d{4})-(\d{2})-(\d{2})$/.exec(value) ?? []).slice(1).map(Number);
  const date = year === undefined ? undefined : new Date(year, month! - 1, day, 12);
  if (!date || date.getFullYear() !== year || date.getMonth() !== month! - 1 || date.getDate() !== day) {
    throw new UsageError(messages.notADate('--anchor-date', value));
  }
  return date;
}

export interface RefactorCommandOptions extends GlobalArgs {
  dryRun: boolean;
  diff: boolean;
  anchorDate?: string | undefined;
  engine: EngineName;
  model?: string | undefined;
}

/** `memdir refactor`: the audit and report on stdout, then with --diff the unified diff. */
export async function runRefactorCommand(args: RefactorCommandOptions, output: Output): Promise<number> {
  const anchor = parseAnchor(args.anchorDate);
  const dir = resolveChecked(args, output).dir;
  if (!fs.existsSync(dir)) throw new UsageError(messages.noMemoryDirectory(dir));
  const engine = usableEngine(args.engine);
  const result = await runRefactor(dir, { dryRun: args.dryRun, diff: args.diff, anchor, engine, model: args.model, warn: output.warn });
  if (args.json) {
    output.json({ ...reportJson(result, args.dryRun), diff: args.dryRun || args.diff ? result.diffs.join('') : undefined });
    return 0;
  }
  output.write(formatReport(result, args.dryRun));
  if (args.diff) output.write(result.diffs.join(''));
  return 0;
}
