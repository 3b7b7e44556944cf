import { classifyPointerTarget, parseMemoryIndex, pointerPath } from '../core/memory-index.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import type { RefactorPlan } from './plan.js';

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The "nothing lost" check (DESIGN §2.2): every non-blank line of every file
 * before the refactor must appear, whitespace-normalized and with the plan's
 * date rewrites applied, in some file after it — or be listed as dropped.
 * Pointer lines count as kept when their target is still pointed to and their
 * title and hook text survive somewhere. Files memdir left alone (it could
 * not read or decode them, so their lines are unknown) must not be touched
 * by the plan at all: byte-identical after it. Returns what would be lost.
 */
export function lostLines(before: Map<string, string>, plan: RefactorPlan, leftAlone: Iterable<string> = []): Array<{ file: string; line: number; text: string }> {
  const after = new Map(before);
  for (const [file, content] of plan.changes) {
    if (content === null) after.delete(file);
    else after.set(file, content);
  }
  const haystack = normalize([...after.values()].join('\n'));
  // Whole lines are looked up in a set; only the rest needs a substring search of everything.
  const afterLines = new Set([...after.values()].flatMap((text) => text.split(/\r?\n/).map(normalize)));
  const rewrites = [...new Map(plan.operations.flatMap((op) => (op.kind === 'rewrite-date' ? [[normalize(op.from), normalize(op.to)] as const] : []))).entries()];
  const merged = new Map(plan.operations.flatMap((op) => (op.kind === 'merge' ? [[op.from, op.into] as const] : [])));
  const excused = new Set(plan.dropped.map((d) => normalize(d.text)));
  const pointed = new Set<string>();
  for (const [file, text] of after) {
    if (file === INDEX_FILE || /^index_(?:user|feedback|project|reference|other)(?:_\d+)?\.md$/.test(file)) {
      for (const line of parseMemoryIndex(text).lines) if (line.kind === 'pointer') pointed.add(pointerPath(line.target));
    }
  }
  const found = (candidate: string) => afterLines.has(candidate) || haystack.includes(candidate);
  const present = (text: string) => {
    const candidate = normalize(text);
    if (!candidate || afterLines.has(candidate)) return true;
    let rewritten = candidate;
    for (const [from, to] of rewrites) if (rewritten.includes(from)) rewritten = rewritten.split(from).join(to);
    return rewritten !== candidate ? found(rewritten) || found(candidate) : found(candidate);
  };

  const lost: Array<{ file: string; line: number; text: string }> = [];
  for (const file of leftAlone) if (plan.changes.has(file)) lost.push({ file, line: 1, text: '(the whole file, which memdir leaves alone)' });
  for (const [file, text] of before) {
    const index = file === INDEX_FILE ? parseMemoryIndex(text) : undefined;
    text.split(/\r?\n/).forEach((raw, i) => {
      if (!raw.trim() || /^(?:---|\.\.\.)\s*$/.test(raw) || excused.has(normalize(raw))) return;
      const parsed = index?.lines[i];
      if (parsed?.kind === 'pointer' && classifyPointerTarget(parsed.target).kind !== 'external') {
        const target = pointerPath(parsed.target);
        let survivor = target;
        while (merged.has(survivor)) survivor = merged.get(survivor)!;
        if (pointed.has(survivor) && present(parsed.title.replace(/\\(.)/g, '$1')) && present(parsed.hook)) return;
      } else if (parsed?.kind === 'heading') {
        if (present(parsed.text)) return;
      } else if (present(raw)) {
        return;
      }
      // A frontmatter value that was only quoted is still there.
      const value = /^[A-Za-z_][\w-]*:\s*(.+)$/.exec(raw)?.[1];
      if (value && present(value.replace(/^["']|["']$/g, ''))) return;
      lost.push({ file, line: i + 1, text: raw });
    });
  }
  return lost;
}
