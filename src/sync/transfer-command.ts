/** The command lines of export and import: the memory directory resolved, the report printed, the exit code. */
import path from 'node:path';
import { ExitCode } from '../core/errors.js';
import { messages, printable } from '../core/messages.js';
import { resolveChecked, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { DEFAULT_EXPORT, exportMemory, importMemory, type ImportStatus } from './transfer.js';

export interface ExportCommandOptions extends GlobalArgs {
  out?: string | undefined;
  team: boolean;
}

export interface ImportCommandOptions extends GlobalArgs {
  source: string;
  force: boolean;
  allowSecret: boolean;
}

/** `memdir export [--out FILE.tar|DIR] [--team]`. */
export async function runExport(options: ExportCommandOptions, output: Output): Promise<number> {
  const memdir = resolveChecked(options, output).dir;
  const result = exportMemory(memdir, { out: path.resolve(options.out ?? DEFAULT_EXPORT), team: options.team });
  if (options.json) output.json(result);
  else {
    for (const { file, reason } of result.skipped) output.out(`${output.colors.yellow('skipped'.padEnd(9))} ${printable(file)}${output.colors.dim(`  ${reason}`)}`);
    output.out(messages.exported(result.files.length, result.out));
  }
  return result.skipped.length > 0 ? ExitCode.findings : ExitCode.ok;
}

/** `memdir import FILE.tar|DIR [--force] [--allow-secret]`: exit 1 when a file was kept (conflict) or refused (secret). */
export async function runImport(options: ImportCommandOptions, output: Output): Promise<number> {
  const memdir = resolveChecked(options, output).dir;
  const result = await importMemory(memdir, options.source, { force: options.force, allowSecret: options.allowSecret });
  if (options.json) output.json(result);
  else {
    const { colors } = output;
    const paint: Partial<Record<ImportStatus, (s: string) => string>> = {
      imported: colors.green,
      replaced: colors.yellow,
      merged: colors.blue,
      conflict: colors.red,
      refused: colors.red,
      skipped: colors.yellow,
    };
    for (const entry of result.files) {
      if (entry.status === 'unchanged') continue;
      output.out(`${(paint[entry.status] ?? colors.dim)(entry.status.padEnd(9))} ${printable(entry.file)}${entry.reason ? colors.dim(`  ${entry.reason}`) : ''}`);
    }
    output.out(messages.importSummary(result.summary, memdir));
  }
  return result.summary.conflict + result.summary.refused > 0 ? ExitCode.findings : ExitCode.ok;
}
