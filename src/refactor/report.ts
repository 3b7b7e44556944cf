import { agentViewLines, fileLines } from '../core/agent-view.js';
import { operationReasons } from '../restructure/reasons.js';
import type { RefactorResult } from './run.js';

/** The human report: audit numbers, what the agent will see, then one line per file, what was dropped and what is left to the user. */
export function formatReport(result: RefactorResult, dryRun: boolean): string {
  const { plan } = result;
  const { before, after } = plan;
  const count = (kind: string) => plan.operations.filter((o) => o.kind === kind).length;
  const lines = [
    `memory directory: ${result.dir} (engine: ${result.engine})`,
    `index before: ${before.lines} lines, ${before.bytes.toLocaleString('en-US')} bytes, ${before.pointers} pointers, ${before.inlineLines} inline content lines${before.complete ? '' : ' — the agent does NOT see all of it'}`,
    `index after:  ${after.lines} lines, ${after.bytes.toLocaleString('en-US')} bytes, ${after.pointers} pointers, ${after.inlineLines} inline content lines${after.complete ? '' : ' — still cut when loaded'}`,
    `audit: ${result.audit.map((a) => `${a.count} ${a.what}`).join('; ')}`,
    ...agentViewLines(result.view, dryRun),
    `operations: ${count('create')} topic files from the index, ${count('split')} split, ${count('merge')} merged, ${count('fill-frontmatter')} frontmatter filled, ${count('quote-frontmatter')} frontmatter quoted, ${count('rewrite-date')} dates made absolute`,
    ...fileLines(result.view, operationReasons(plan.operations)),
  ];
  const demoted = plan.operations.filter((op) => op.kind === 'demote');
  if (demoted.length) {
    lines.push(`moved out of MEMORY.md: ${demoted.length} pointer(s), the agent sees them only through a second-level index:`);
    for (const op of demoted) lines.push(`  pointer to ${op.path} moved to ${op.into}: ${op.reason}`);
  }
  if (plan.dropped.length) {
    lines.push(`dropped ${plan.dropped.length} line(s):`);
    for (const d of plan.dropped) lines.push(`  ${d.source}: ${d.text.trim()} — ${d.reason}`);
  }
  if (plan.warnings.length) {
    lines.push(`left for you (${plan.warnings.length}):`);
    for (const w of plan.warnings) lines.push(`  ${w.path}: ${w.message}`);
  }
  if (plan.changes.size === 0) lines.push('nothing to do: the directory is already in the two-layer layout');
  return `${lines.join('\n')}\n`;
}

/** The --json report. */
export function reportJson(result: RefactorResult, dryRun: boolean) {
  const { plan } = result;
  return {
    dir: result.dir,
    engine: result.engine,
    usage: result.usage ?? null,
    dryRun,
    written: result.written,
    before: plan.before,
    after: plan.after,
    agentView: result.view,
    audit: result.audit,
    operations: plan.operations,
    files: [...plan.changes].map(([path, content]) => ({ path, action: content === null ? 'delete' : 'write' })),
    dropped: plan.dropped,
    dates: plan.operations.filter((o) => o.kind === 'rewrite-date'),
    warnings: plan.warnings,
  };
}
