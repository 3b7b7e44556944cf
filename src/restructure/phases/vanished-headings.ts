import { type IndexLine, parseMemoryIndex, pointerPath } from '../../core/memory-index.js';
import { INDEX_FILE } from '../../core/taxonomy.js';
import type { PlanState } from './state.js';

const REASONS = {
  merged: 'a second section with this heading: what it held is under the one kept',
  dead: 'its section held only pointers to files that do not exist',
  duplicate: 'its section held only second pointers to files listed above (what they said moved into those files)',
  both: 'its section held only pointers to files that do not exist and second pointers to files listed above',
};

/**
 * The headings of MEMORY.md the new layout no longer shows are listed as dropped, with the reason,
 * when the layout removed them on purpose: a second section under the same heading joins the first,
 * and a section goes when every pointer under it left (to a file that does not exist, dropped by
 * dream, or a second pointer to a file, whose text moved into it). Any other heading that vanished
 * is left to the nothing-lost check. Headings are matched by text, as many times as `newTexts` (the
 * new index and sub-indexes) hold each; those with nothing gone from under them are matched first.
 */
export function accountForVanishedHeadings(state: PlanState, newTexts: string[]): void {
  const remaining = new Map<string, number>();
  for (const text of newTexts) for (const line of parseMemoryIndex(text).lines) if (line.kind === 'heading') remaining.set(line.text, (remaining.get(line.text) ?? 0) + 1);
  const survives = new Set(remaining.keys());
  const headings: Array<{ line: IndexLine & { kind: 'heading' }; dead: boolean; duplicate: boolean }> = [];
  let open: typeof headings = [];
  for (const line of state.parsedIndex.lines) {
    if (line.kind === 'heading') {
      const heading = { line, dead: false, duplicate: false };
      open = [...open.filter((h) => h.line.level < line.level), heading];
      headings.push(heading);
    } else if (line.kind === 'pointer') {
      const dead = state.deadTargets.has(pointerPath(line.target));
      const duplicate = state.duplicatePointerLines.has(line.line);
      for (const h of open) {
        h.dead ||= dead;
        h.duplicate ||= duplicate;
      }
    }
  }
  const take = (text: string) => {
    const left = remaining.get(text) ?? 0;
    if (left > 0) remaining.set(text, left - 1);
    return left > 0;
  };
  const emptied = (h: (typeof headings)[number]) => h.dead || h.duplicate;
  const unmatched = [...headings.filter((h) => !emptied(h)), ...headings.filter(emptied)].filter((h) => !take(h.line.text));
  for (const h of unmatched) {
    const reason = h.dead && h.duplicate ? REASONS.both : h.dead ? REASONS.dead : h.duplicate ? REASONS.duplicate : survives.has(h.line.text) ? REASONS.merged : undefined;
    if (reason) state.dropped.push({ text: h.line.raw, reason, source: INDEX_FILE });
  }
}
