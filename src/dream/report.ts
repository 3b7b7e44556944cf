import { messages } from '../core/messages.js';
import type { DreamAction } from './plan.js';
import type { DreamCounts, DreamResult } from './types.js';

export function summaryLine(counts: DreamCounts): string {
  const { improved, merged, dates, pruned, stale, deadPointers, indexRewritten } = counts;
  const marked = stale ? `, ${stale} marked stale` : '';
  const dropped = deadPointers ? `, ${deadPointers} dead pointer${deadPointers === 1 ? '' : 's'} dropped` : '';
  const index = indexRewritten ? ', MEMORY.md rewritten' : '';
  return `Improved ${improved} ${improved === 1 ? 'memory' : 'memories'} (${merged} merged, ${dates} dates, ${pruned} pruned${marked}${dropped}${index})`;
}

/** Every deletion and rewrite with its reason, deletions first. */
export function actionLines(actions: DreamAction[]): string[] {
  const ordered = [...actions.filter((a) => a.effect === 'delete'), ...actions.filter((a) => a.effect === 'rewrite')];
  return ordered.map((a) => `${a.effect === 'delete' ? 'delete ' : 'rewrite'} ${a.path}: ${a.reason}`);
}

/** The report an applied run leaves in .memdir/dream/<time>.md (and the --commit message). */
export function formatDreamReport(result: DreamResult, stamp: string): string {
  const lines = [`memdir dream: ${summaryLine(result.counts)}`, '', `Run ${stamp} on ${result.dir}.`, `Gate: ${result.gate.reason}.`, `${messages.dreamDriftRepository(result.repository)}.`, ''];
  lines.push('Deletions and rewrites, each with its reason:', '', ...actionLines(result.actions).map((l) => `- ${l}`), '');
  const dropped = result.plan?.plan.dropped ?? [];
  if (dropped.length) lines.push('Lines removed:', '', ...dropped.map((d) => `- ${d.source}: ${d.text.trim()} — ${d.reason}`), '');
  const left = result.plan?.plan.warnings ?? [];
  if (left.length) lines.push('Left for you:', '', ...left.map((w) => `- ${w.path}: ${w.message}`), '');
  if (result.unsaved.length) {
    lines.push(
      'Asked to be remembered in recent sessions but in no memory yet (`memdir extract` saves them):',
      '',
      ...result.unsaved.map((u) => `- ${u.text} (${u.transcript}, message ${u.uuid})`),
      '',
    );
  }
  lines.push(`The previous version of every changed file is kept beside this report; \`memdir dream --undo\` restores them.`);
  return `${lines.join('\n')}\n`;
}
