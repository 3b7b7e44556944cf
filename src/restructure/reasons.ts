import type { Operation } from './phases/state.js';

/** Why each file changes, from the operations that touch it. */
export function operationReasons(operations: readonly Operation[]): Map<string, string[]> {
  const reasons = new Map<string, string[]>();
  const add = (path: string, reason: string) => reasons.set(path, [...(reasons.get(path) ?? []), reason]);
  for (const op of operations) {
    if (op.kind === 'create') add(op.path, `${op.type} memory from ${op.source}`);
    else if (op.kind === 'append') add(op.path, `${op.lines} line(s) appended from ${op.source}`);
    else if (op.kind === 'split') {
      add(op.path, `split into ${op.parts.join(', ')}`);
      for (const part of op.parts) add(part, `split from ${op.path}`);
    } else if (op.kind === 'merge') {
      add(op.from, `merged into ${op.into} (${Math.round(op.similarity * 100)}% similar)`);
      add(op.into, `${op.from} merged in`);
    } else if (op.kind === 'fill-frontmatter') add(op.path, `filled ${op.fields.join(', ')}`);
    else if (op.kind === 'quote-frontmatter') add(op.path, `quoted ${op.keys.join(', ')}`);
    else if (op.kind === 'rewrite-date') add(op.path, `"${op.from}" → ${op.to} (anchored at ${op.anchor})`);
    else if (op.kind === 'preamble') add(op.path, `the index's own preamble (${op.source}) ${op.action}: it is about the index, not a memory`);
  }
  return reasons;
}
