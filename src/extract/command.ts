import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { TEAM_DIR } from '../core/taxonomy.js';
import { messages } from '../core/messages.js';
import { configSection } from '../config/find.js';
import { usableEngine } from '../llm/model.js';
import { resolveFor } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { absolutePath, workingDirectory } from '../store/cwd.js';
import { type CandidateDecision, type ConsideredStatement, extract, type ExtractResult } from './extract.js';
import { awaitTranscript, type TranscriptCommandOptions } from '../claude-code/stop-run.js';
import { runExtractHook } from './hook.js';
import type { OperationBasis } from './operations.js';
import { type ReviewAction, runReview } from './review.js';

export interface ExtractCommandOptions extends TranscriptCommandOptions {
  every?: number | undefined;
  explicitOnly?: boolean | undefined;
  review?: boolean | undefined;
  accept?: string | undefined;
  discard?: string | undefined;
  /** Write team memory (`<memdir>/team/`) rather than private memory. */
  team?: boolean | undefined;
}

/** `--review`, `--accept ID` or `--discard ID`: one of them, and no transcript. */
function reviewAction(args: ExtractCommandOptions): ReviewAction | undefined {
  const actions: ReviewAction[] = [];
  if (args.review) actions.push({ review: true });
  if (args.accept !== undefined) actions.push({ accept: args.accept });
  if (args.discard !== undefined) actions.push({ discard: args.discard });
  if (actions.length === 0) return undefined;
  if (actions.length > 1 || args.from || args.hook || args.dryRun) throw new UsageError(messages.extractReviewExclusive());
  return actions[0];
}

/** How `--dry-run` says why an operation exists. */
const BASIS_LABEL: Record<OperationBasis, string> = { request: 'asked for', inferred: 'inferred', model: 'proposed by the model' };

/** The groups of `--dry-run`'s considered statements, in the order they are printed. */
const DECISIONS: Record<CandidateDecision, string> = {
  saved: 'saved',
  duplicate: 'duplicate',
  'kept-elsewhere': 'kept elsewhere',
  'task-scoped': 'task-scoped',
  'not-asked': 'not asked for',
  'not-durable': 'not durable',
  secret: 'secret',
  refused: 'refused',
};

const MAX_STATEMENT = 80;

/** One line per statement, grouped by decision, then the counts. */
function reportConsidered(output: Output, considered: readonly ConsideredStatement[]): void {
  const decisions = Object.keys(DECISIONS) as CandidateDecision[];
  const width = Math.max(...decisions.map((d) => DECISIONS[d].length));
  output.out(messages.extractConsidered(considered.length));
  for (const decision of decisions) {
    for (const c of considered.filter((entry) => entry.decision === decision)) {
      const oneLine = c.statement.replace(/\s+/g, ' ').trim();
      const statement = oneLine.length > MAX_STATEMENT ? `${oneLine.slice(0, MAX_STATEMENT - 1)}…` : oneLine;
      output.out(`  ${DECISIONS[decision].padEnd(width)}  "${statement}" (${c.reason})`);
    }
  }
  const counts = decisions.map((d) => [d, considered.filter((c) => c.decision === d).length] as const).filter(([, n]) => n > 0);
  if (counts.length > 0) output.out(counts.map(([d, n]) => `${n} ${DECISIONS[d]}`).join(', '));
}

function report(args: ExtractCommandOptions, output: Output, result: ExtractResult): void {
  if (args.json) {
    output.json(result);
    return;
  }
  if (args.dryRun) {
    for (const o of result.operations) output.out(`${o.op} ${o.file || '(new file)'} [${o.type ?? '-'}, ${BASIS_LABEL[o.basis]}] ${o.name}: ${o.description}`);
    if (result.considered && result.status === 'extracted') reportConsidered(output, result.considered);
  }
  for (const r of result.rejected) output.warn(messages.extractRejected(r.op, r.file, r.reason));
  if (result.status === 'main-agent-wrote') output.info(messages.extractMainAgentWrote(result.mainAgentWrites.length));
  if (result.status === 'coalesced') output.info(messages.extractCoalesced());
  const saved = result.operations.filter((o) => o.op !== 'delete').length;
  if (saved > 0 && !args.dryRun) output.info(messages.extractSaved(saved));
  if (result.candidates.length > 0) output.info(messages.extractCandidatesRecorded(result.candidates.length));
  for (const o of result.operations) if (o.notLoaded) output.warn(messages.pointerNotLoaded(o.file));
  if (!args.dryRun) {
    for (const o of result.operations) {
      if (o.contradiction?.replaced) output.info(messages.extractReplaced(o.file, o.contradiction.was));
      else if (o.contradiction) output.warn(messages.extractMayContradict(o.file, o.contradiction.was, o.contradiction.reason));
    }
  }
}

/** `memdir extract`: the new part of a transcript (a file, `-` for stdin, or the Stop hook's) becomes memories. */
export async function runExtract(args: ExtractCommandOptions, output: Output): Promise<number> {
  if (args.team && (args.hook || args.review || args.accept !== undefined || args.discard !== undefined)) throw new UsageError(messages.extractTeamTranscriptOnly());
  if (args.hook) {
    const { dir, engine, model, every, explicitOnly, trustProjectSettings } = args;
    return runExtractHook({ dir, engine, model, every, explicitOnly, trustProjectSettings, warn: output.warn });
  }
  const action = reviewAction(args);
  if (action) return runReview(action, { dir: resolveFor(args, output).dir, dirFlag: args.dir, projectDir: workingDirectory(), json: args.json }, output);
  const from = args.from;
  if (!from) throw new UsageError(messages.extractNeedsInput());
  if (args.afterStop && from !== '-') await awaitTranscript(absolutePath(from));
  const memdir = resolveFor(args, output).dir;
  const dir = args.team ? path.join(memdir, TEAM_DIR) : memdir;
  // Flags win; then the `extract` section of memdir.config.json; then the defaults.
  const section = configSection('extract', { dir: memdir, cwd: workingDirectory(), trustProjectSettings: args.trustProjectSettings || undefined }, output.warn);
  const engine = usableEngine(args.engine ?? section.engine);
  const result = await extract({
    dir,
    transcript: from === '-' ? process.stdin : absolutePath(from),
    sessionId: args.sessionId,
    engine,
    model: args.model ?? section.model,
    every: args.every ?? section.every,
    // The Stop hook writes unattended after every turn: there, only what the user asked for, unless the
    // config says otherwise (inferred statements were right fewer than 6 times in 10 on real prompts; bench/extract/README.md).
    explicitOnly: args.explicitOnly ?? section.explicitOnly ?? args.afterStop === true,
    dryRun: args.dryRun,
    projectDir: workingDirectory(),
    info: output.info,
    warn: output.warn,
    explain: args.dryRun || args.json,
  });
  report(args, output, result);
  return 0;
}
