import { agentViewLines, fileLines } from '../core/agent-view.js';
import { messages } from '../core/messages.js';
import { operationReasons } from '../restructure/reasons.js';
import type { DreamCounts, DreamResult } from './types.js';

export function summaryLine(counts: DreamCounts): string {
  const { improved, merged, dates, pruned, stale, deadPointers, indexRewritten } = counts;
  const marked = stale ? `, ${stale} marked stale` : '';
  const dropped = deadPointers ? `, ${deadPointers} dead pointer${deadPointers === 1 ? '' : 's'} dropped` : '';
  const index = indexRewritten ? ', MEMORY.md rewritten' : '';
  return `Improved ${improved} ${improved === 1 ? 'memory' : 'memories'} (${merged} merged, ${dates} dates, ${pruned} pruned${marked}${dropped}${index})`;
}

/** Why each file changes: its actions, deletions first; else the restructure's operations on it (a merge's survivor, filled frontmatter). */
function reasonsOf(result: DreamResult): Map<string, string[]> {
  const reasons = operationReasons(result.plan?.plan.operations ?? []);
  const byAction = new Map<string, string[]>();
  for (const a of [...result.actions].sort((x, y) => Number(x.effect !== 'delete') - Number(y.effect !== 'delete'))) byAction.set(a.path, [...(byAction.get(a.path) ?? []), a.reason]);
  for (const [path, why] of byAction) reasons.set(path, why);
  return reasons;
}

/** What the agent will see, then one line per file with its reasons (none before a plan). */
export function viewLines(result: DreamResult, dryRun: boolean): string[] {
  return result.view ? [...agentViewLines(result.view, dryRun), ...fileLines(result.view, reasonsOf(result))] : [];
}

/** What `dream --hook` prints on stderr however much changed: the counts, what is left for the user, where the report is. */
export function hookSummaryLines(result: DreamResult): string[] {
  const left = (result.plan?.plan.warnings.length ?? 0) + result.rejected.length;
  return [
    `memdir dream: ${summaryLine(result.counts)}`,
    ...(left + result.unsaved.length > 0 ? [messages.dreamHookLeft(left, result.unsaved.length, result.report !== null)] : []),
    ...(result.report ? [`memdir dream: report: ${result.report}`] : []),
  ];
}

/** The report an applied run leaves in .memdir/dream/<time>.md (and the --commit message). */
export function formatDreamReport(result: DreamResult, stamp: string): string {
  const lines = [
    `memdir dream: ${summaryLine(result.counts)}`,
    '',
    `Run ${stamp} on ${result.dir}.`,
    `Gate: ${result.gate.reason}.`,
    `${messages.dreamDriftRepository(result.repository)}.`,
    '',
    ...viewLines(result, false),
    '',
  ];
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
