import { UsageError } from '../core/errors.js';
import { messages, printable, printableLines } from '../core/messages.js';
import { usableEngine } from '../llm/model.js';
import { resolveFor } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { configSection } from '../config/find.js';
import { absolutePath, requireWorkingDirectory, workingDirectory } from '../store/cwd.js';
import { findGitRoot } from '../store/git-root.js';
import { MAX_CANDIDATES } from './find.js';
import { awaitTranscript, type TranscriptCommandOptions } from '../claude-code/stop-run.js';
import { runDocsHook } from './hook.js';
import { type DocReport, type DocsResult, runDocs } from './run.js';

export type DocsCommandOptions = TranscriptCommandOptions;

const KIND = { edited: 'edited', ran: 'ran', read: 'read' } as const;

/** `+added −removed` lines of a unified diff. */
function lineCounts(diff: string): string {
  const lines = diff.split('\n').slice(2);
  const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
  const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
  return `+${added} −${removed}`;
}

function outcomeLine(doc: DocReport, dryRun: boolean): string | undefined {
  switch (doc.outcome) {
    case 'updated':
      return `  ${dryRun ? 'would update' : 'updated'} (${lineCounts(doc.diff ?? '')} lines)`;
    case 'unchanged':
      return '  unchanged: the turn taught nothing the doc holds';
    case 'refused':
      return `  refused: ${doc.reason}`;
    case 'failed':
      return `  not updated: ${doc.reason}`;
    default:
      return undefined;
  }
}

function report(args: DocsCommandOptions, output: Output, result: DocsResult): void {
  for (const skipped of result.skipped) output.warn(messages.docsSkipped(skipped.path, skipped.reason));
  if (result.truncated) output.warn(messages.docsTruncated(MAX_CANDIDATES));
  if (args.json) {
    output.json(result);
    return;
  }
  if (result.status === 'coalesced') output.info(messages.docsCoalesced());
  if (result.docs.length === 0) output.info(messages.docsNone());
  for (const doc of result.docs) {
    // Paths, titles, commands and the doc's own text come from the repository and the transcript: printed inert.
    output.out(printable(`${doc.path}  ${doc.title}${doc.read ? '  (read in the new part of the transcript)' : ''}`));
    if (doc.instructions) output.out(printable(`  instructions: ${doc.instructions}`));
    for (const t of doc.touched) output.out(printable(`  ${KIND[t.kind]} ${t.what} (${t.why})`));
    const line = outcomeLine(doc, result.dryRun);
    if (line) output.out(printable(line));
    if (result.dryRun && doc.diff) output.write(printableLines(doc.diff));
  }
  if (result.engine === 'local' && result.transcript) output.info(`memdir docs: ${messages.docsOffline()}`);
}

/** `memdir docs`: list the Magic Docs; with a transcript, update those its new part read (claude) or say what touched them (local). */
export async function runDocsCommand(args: DocsCommandOptions, output: Output): Promise<number> {
  if (args.hook) return runDocsHook({ dir: args.dir, engine: args.engine, model: args.model, trustProjectSettings: args.trustProjectSettings, warn: output.warn });
  const from = args.from ? (args.from === '-' ? '-' : absolutePath(args.from)) : undefined;
  if (from && args.afterStop && from !== '-') await awaitTranscript(from);
  // The memory directory holds the per-session cursor and the run lock, and its config comes first.
  const dir = resolveFor(args, output).dir;
  // Flags win; then the `docs` section of memdir.config.json; then the defaults.
  const section = configSection('docs', { dir, cwd: workingDirectory(), trustProjectSettings: args.trustProjectSettings || undefined }, output.warn);
  const engine = usableEngine(args.engine ?? section.engine);
  const model = args.model ?? section.model;
  const root = findGitRoot(requireWorkingDirectory());
  if (!root) throw new UsageError(messages.docsNotInGit());
  const result = await runDocs({ root, dir, transcript: from, sessionId: args.sessionId, engine, model, dryRun: args.dryRun, info: output.info });
  report(args, output, result);
  return result.docs.some((d) => d.outcome === 'refused' || d.outcome === 'failed') ? 1 : 0;
}
