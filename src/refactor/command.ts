import fs from 'node:fs';
import type { RefactorArgs } from '../cmd/refactor.js';
import { ConfigError, UsageError } from '../core/errors.js';
import { chooseEngine } from '../llm/model.js';
import { resolveFor } from '../shell/options.js';
import { createOutput } from '../shell/output.js';
import { formatReport, reportJson } from './report.js';
import { runRefactor } from './run.js';

function parseAnchor(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw new UsageError(`--anchor-date "${value}" is not a date like 2026-03-05`);
  return date;
}

export async function runRefactorCommand(args: RefactorArgs): Promise<void> {
  const output = createOutput(args);
  const anchor = parseAnchor(args.anchorDate);
  const dir = resolveFor(args, output).dir;
  if (!fs.existsSync(dir)) throw new UsageError(`${dir}: no memory directory here`);
  const engine = chooseEngine(args.engine);
  if (engine === 'claude' && !process.env.ANTHROPIC_API_KEY) {
    throw new ConfigError('--engine claude needs ANTHROPIC_API_KEY', { hint: 'set it, or use --engine local' });
  }
  const result = await runRefactor(dir, { dryRun: args.dryRun, anchor, engine, model: args.model, warn: output.warn });
  if (args.json) {
    output.json({ ...reportJson(result, args.dryRun), diff: args.dryRun ? result.diffs.join('') : undefined });
    return;
  }
  if (args.dryRun) process.stdout.write(result.diffs.join(''));
  process.stdout.write(formatReport(result, args.dryRun));
}
