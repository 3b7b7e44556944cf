import { TOPIC_MAX_LINES } from '../../core/limits.js';
import { comparableText, NEAR_DUPLICATE_THRESHOLD, similarPairs } from '../../core/similarity.js';
import { memoryFields, serializeTopicFile, withBody } from '../../core/topic-file.js';
import { lineCount, type PlanState } from './state.js';

/**
 * Phase 6: near-duplicates merge into the newer file (union of lines, newer
 * frontmatter), repeated until nothing merges, so a second run finds nothing
 * left to do.
 */
export function mergeNearDuplicates(state: PlanState): void {
  for (let merged = true; merged; ) {
    merged = false;
    const candidates = [...state.topics.values()].filter((t) => !t.broken);
    const texts = candidates.map((t) => comparableText(memoryFields(t.file.frontmatter?.data ?? {}), t.file.body));
    const touched = new Set<string>();
    for (const { a, b, score } of similarPairs(texts, { threshold: NEAR_DUPLICATE_THRESHOLD })) {
      const [older, newer] = candidates[a]!.anchor <= candidates[b]!.anchor ? [candidates[a]!, candidates[b]!] : [candidates[b]!, candidates[a]!];
      if (touched.has(older.path) || touched.has(newer.path)) continue;
      // The union: the older file's name and description (as a heading and a line), the title and hook
      // of its pointer (which the newer file's pointer replaces), and every line the newer lacks.
      const newerText = serializeTopicFile(newer.file);
      const present = new Set(
        newer.file.body
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean),
      );
      const olderFields = memoryFields(older.file.frontmatter?.data ?? {});
      const olderPointer = state.pointers.find((p) => p.target === older.path);
      const title = olderPointer?.title.replace(/\\(.)/g, '$1');
      const carried = [...new Set([olderFields.name, title].filter((t) => t && !newerText.includes(t)).map((t) => `## ${t}`))];
      for (const line of [olderFields.description, olderPointer?.hook]) if (line && !newerText.includes(line) && !carried.includes(line)) carried.push(line);
      const extra = [...carried, ...older.file.body.split(/\r?\n/).filter((l) => l.trim() && !present.has(l.trim()) && !carried.includes(l.trim()))];
      // A merge that would need splitting again is not a merge worth making (and would not be idempotent).
      if (lineCount(newerText) + extra.length + 2 > TOPIC_MAX_LINES - 10) continue;
      const eol = newer.file.eol;
      if (extra.length) newer.file = withBody(newer.file, `${newer.file.body.replace(/\s*$/, '')}${eol}${eol}${extra.join(eol)}${eol}`);
      for (const line of otherFrontmatterLines(older.file.frontmatter?.raw ?? '')) {
        if (!newerText.includes(line.trim())) state.dropped.push({ text: line, reason: `frontmatter of ${older.path}, merged into ${newer.path}, which keeps its own`, source: older.path });
      }
      state.mergedAway.set(older.path, newer.path);
      state.topics.delete(older.path);
      touched.add(older.path).add(newer.path);
      merged = true;
      state.operations.push({ kind: 'merge', into: newer.path, from: older.path, similarity: Math.round(score * 100) / 100 });
    }
  }
}

/** The fields a merge carries over (as a heading and a line) or shares with the newer file. */
const CARRIED_KEYS = new Set(['name', 'description', 'type']);

/**
 * The frontmatter lines of a file other than its name, description and type (provenance such as
 * Claude Code's originSessionId, dates, nested metadata): a merged file's have no place in the file
 * it merges into, so the plan reports them as dropped, with the reason, instead of losing them.
 */
function otherFrontmatterLines(raw: string): string[] {
  let carried = false;
  return raw.split(/\r?\n/).filter((line) => {
    if (!line.trim()) return false;
    const key = /^([^\s#][^:]*):/.exec(line)?.[1];
    if (key !== undefined) carried = CARRIED_KEYS.has(key.trim());
    return !carried;
  });
}
