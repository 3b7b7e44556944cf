import type { RefactorResult } from './run.js';

/** The human report: audit numbers, then what was (or would be) done, dropped and left to the user. */
export function formatReport(result: RefactorResult, dryRun: boolean): string {
  const { plan } = result;
  const { before, after } = plan;
  const count = (kind: string) => plan.operations.filter((o) => o.kind === kind).length;
  const lines = [
    `memory directory: ${result.dir} (engine: ${result.engine})`,
    `index before: ${before.lines} lines, ${before.bytes.toLocaleString('en-US')} bytes, ${before.pointers} pointers, ${before.inlineLines} inline content lines${before.complete ? '' : ' — the agent does NOT see all of it'}`,
    `index after:  ${after.lines} lines, ${after.bytes.toLocaleString('en-US')} bytes, ${after.pointers} pointers, ${after.inlineLines} inline content lines${after.complete ? '' : ' — still cut when loaded'}`,
    `audit: ${result.audit.map((a) => `${a.count} ${a.what}`).join('; ')}`,
    `${dryRun ? 'would change' : 'changed'} ${plan.changes.size} file(s): ${count('create')} created, ${count('split')} split, ${count('merge')} merged, ${count('fill-frontmatter')} frontmatter filled, ${count('quote-frontmatter')} frontmatter quoted, ${count('rewrite-date')} dates made absolute`,
  ];
  for (const op of plan.operations) {
    if (op.kind === 'create') lines.push(`  create ${op.path} (${op.type}) from ${op.source}`);
    else if (op.kind === 'append') lines.push(`  append ${op.lines} line(s) to ${op.path} from ${op.source}`);
    else if (op.kind === 'split') lines.push(`  split ${op.path} → ${op.parts.join(', ')}`);
    else if (op.kind === 'merge') lines.push(`  merge ${op.from} into ${op.into} (${Math.round(op.similarity * 100)}% similar)`);
    else if (op.kind === 'fill-frontmatter') lines.push(`  fill ${op.fields.join(', ')} in ${op.path}`);
    else if (op.kind === 'quote-frontmatter') lines.push(`  quote ${op.keys.join(', ')} in ${op.path}`);
    else if (op.kind === 'demote') lines.push(`  pointer to ${op.path} moved to ${op.into}: ${op.reason}`);
    else if (op.kind === 'rewrite-date') lines.push(`  date in ${op.path}: "${op.from}" → ${op.to} (anchored at ${op.anchor})`);
    else if (op.kind === 'preamble')
      lines.push(`  the index's own preamble (${op.source}): ${op.action === 'moved to a topic file' ? `moved to ${op.path}` : op.action} — it is about the index, not a memory`);
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
    audit: result.audit,
    operations: plan.operations,
    files: [...plan.changes].map(([path, content]) => ({ path, action: content === null ? 'delete' : 'write' })),
    dropped: plan.dropped,
    dates: plan.operations.filter((o) => o.kind === 'rewrite-date'),
    warnings: plan.warnings,
  };
}
