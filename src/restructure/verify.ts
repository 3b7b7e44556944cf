import { classifyPointerTarget, parseMemoryIndex, pointerPath } from '../core/memory-index.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { tableRowPointer } from './classify.js';
import { type PlanInputFile, type RefactorPlan, SUB_INDEX } from './phases/state.js';

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The "nothing lost" check (docs/architecture.md#plan-engine-and-the-nothing-lost-check): every non-blank line of every file
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
  // One expression may be rewritten to different days in different places (each has its own anchor).
  const rewrites = new Map<string, Set<string>>();
  for (const op of plan.operations) if (op.kind === 'rewrite-date') rewrites.set(normalize(op.from), (rewrites.get(normalize(op.from)) ?? new Set()).add(normalize(op.to)));
  const merged = new Map(plan.operations.flatMap((op) => (op.kind === 'merge' ? [[op.from, op.into] as const] : [])));
  const excused = new Set(plan.dropped.map((d) => normalize(d.text)));
  const pointed = new Set<string>();
  for (const [file, text] of after) {
    if (file === INDEX_FILE || SUB_INDEX.test(file)) {
      for (const line of parseMemoryIndex(text).lines) if (line.kind === 'pointer') pointed.add(pointerPath(line.target));
    }
  }
  const found = (candidate: string) => afterLines.has(candidate) || haystack.includes(candidate);
  const present = (text: string) => {
    const candidate = normalize(text);
    if (!candidate || afterLines.has(candidate)) return true;
    // A value quoted in the frontmatter has its inner quotes escaped.
    let variants = candidate.includes('"') ? [candidate, candidate.replace(/"/g, '\\"')] : [candidate];
    for (const [from, tos] of rewrites) {
      if (!candidate.includes(from)) continue;
      // Prose-only rewrites: an expression may be rewritten in one place and kept in another (code, a quotation).
      const rewritten = (v: string, to: string) => {
        const parts = v.split(from);
        return [parts.join(to), ...parts.slice(1).map((_, i) => parts.slice(0, i + 1).join(from) + to + parts.slice(i + 1).join(from))];
      };
      variants = variants.flatMap((v) => [v, ...[...tos].flatMap((to) => rewritten(v, to))]).slice(0, 64);
    }
    return variants.some(found);
  };

  const lost: Array<{ file: string; line: number; text: string }> = [];
  for (const file of leftAlone) if (plan.changes.has(file)) lost.push({ file, line: 1, text: '(the whole file, which memdir leaves alone)' });
  for (const [file, text] of before) {
    const index = file === INDEX_FILE ? parseMemoryIndex(text) : undefined;
    const subIndex = SUB_INDEX.test(file) ? parseMemoryIndex(text) : undefined;
    text.split(/\r?\n/).forEach((raw, i) => {
      if (!raw.trim() || /^(?:---|\.\.\.)\s*$/.test(raw) || excused.has(normalize(raw))) return;
      const parsed = index?.lines[i] ?? subIndex?.lines[i];
      // A sub-index memdir wrote is rebuilt: only the pointers it holds must survive.
      if (subIndex && parsed?.kind !== 'pointer') return;
      // A line still there as written is not lost, whatever it is (a table of pointers left in place).
      if (present(raw)) return;
      if (parsed?.kind === 'pointer' && classifyPointerTarget(parsed.target).kind !== 'external') {
        const target = pointerPath(parsed.target);
        let survivor = target;
        while (merged.has(survivor)) survivor = merged.get(survivor)!;
        if (pointed.has(survivor) && present(parsed.title.replace(/\\(.)/g, '$1')) && present(parsed.hook)) return;
      } else if (parsed?.kind === 'table' && tableRowPointer(raw)) {
        // A table row of pointers became a pointer line: its cells are its title and hook.
        const row = tableRowPointer(raw)!;
        let survivor = pointerPath(row.target);
        while (merged.has(survivor)) survivor = merged.get(survivor)!;
        if (pointed.has(survivor) && [row.title, ...row.cells].every(present)) return;
      } else if (parsed?.kind === 'heading') {
        if (present(parsed.text)) return;
      }
      // A frontmatter value that was only quoted is still there.
      const value = /^[A-Za-z_][\w-]*:\s*(.+)$/.exec(raw)?.[1];
      if (value && present(value.replace(/^["']|["']$/g, ''))) return;
      lost.push({ file, line: i + 1, text: raw });
    });
  }
  return lost;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
// Scripts written without spaces count per character; a word there is not delimited.
const UNSPACED = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/u;

/** The words of a text, lower-cased; Chinese and Japanese one character each. */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.toLowerCase().matchAll(WORD)) {
    if (UNSPACED.test(word)) out.push(...word.split(/(?=[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff])|(?<=[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff])/u));
    else out.push(word);
  }
  return out;
}

/** The countable text of a line: pointer targets and frontmatter keys are syntax, not words. */
function wordsOfLine(line: string, inFrontmatter: boolean): string[] {
  if (inFrontmatter) {
    const field = /^\s*([A-Za-z_][\w-]*):(.*)$/.exec(line);
    // The type is a label of the file (a merge keeps the newer one's), not something it says.
    if (field) return field[1] === 'type' ? [] : wordsOf(field[2]!);
  }
  return wordsOf(line.replace(/\]\(\s*<?[^)>\s]+>?\s*\)/g, ']'));
}

/** Every line of a file with its words, frontmatter keys left out. */
function linesWithWords(text: string): Array<{ line: number; text: string; words: string[] }> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const frontmatterEnd = /^---\s*$/.test(lines[0] ?? '') ? lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(l)) : -1;
  return lines.map((raw, i) => ({ line: i + 1, text: raw, words: wordsOfLine(raw, i > 0 && i < frontmatterEnd) }));
}

function count(into: Map<string, number>, words: string[], sign: number): void {
  for (const w of words) into.set(w, (into.get(w) ?? 0) + sign);
}

/**
 * The word-level "nothing lost" check: every word of every distinct line
 * before the refactor must occur after it at least as often (in any file:
 * lines move and split; a merged-away file's words must be in the file it
 * was merged into), except the words of relative dates the plan rewrote and
 * of lines it reports as dropped. Returns the lines that lost words, each
 * with the words missing.
 */
export function lostWords(before: Map<string, string>, plan: RefactorPlan): Array<{ file: string; line: number; text: string; words: string[] }> {
  const balance = new Map<string, number>();
  const lost = new Map<string, { file: string; line: number; text: string; words: string[] }>();
  // A file merged into a near-duplicate repeats it by nature: each of its lines must find all its
  // words in the file it was merged into, not add to the count.
  const mergedInto = new Map(plan.operations.flatMap((op) => (op.kind === 'merge' ? [[op.from, op.into] as const] : [])));
  for (const [file, into] of mergedInto) {
    let survivor = into;
    while (mergedInto.has(survivor)) survivor = mergedInto.get(survivor)!;
    const there = new Set(wordsOf(plan.changes.get(survivor) ?? before.get(survivor) ?? ''));
    for (const l of linesWithWords(before.get(file) ?? '')) {
      const words = l.words.filter((w) => !there.has(w));
      if (words.length) lost.set(`${file}:${l.line}`, { file, line: l.line, text: l.text, words });
    }
  }
  // A line written twice (a hook repeated as the description, a line both of two near-duplicates hold)
  // needs to be there once after: the words of each distinct line count.
  const seen = new Set<string>();
  for (const [file, text] of before) {
    // A sub-index memdir wrote is rebuilt from the pointers it holds (checked as lines above).
    if (SUB_INDEX.test(file) || mergedInto.has(file)) continue;
    for (const l of linesWithWords(text)) {
      const key = normalize(l.text);
      if (!seen.has(key)) count(balance, l.words, -1);
      seen.add(key);
    }
  }
  for (const [file, text] of before)
    if (!plan.changes.has(file))
      count(
        balance,
        linesWithWords(text).flatMap((l) => l.words),
        1,
      );
  for (const content of plan.changes.values())
    if (content !== null)
      count(
        balance,
        linesWithWords(content).flatMap((l) => l.words),
        1,
      );
  for (const d of plan.dropped) count(balance, wordsOfLine(d.text, false), 1);
  for (const op of plan.operations) {
    if (op.kind === 'rewrite-date') {
      count(balance, wordsOf(op.from), 1);
      count(balance, wordsOf(op.to), -1);
    }
  }
  const missing = new Set([...balance].filter(([, n]) => n < 0).map(([word]) => word));
  if (missing.size === 0) return [...lost.values()];
  // Where the missing words were: only looked up when something is missing.
  const origin = new Map<string, Array<{ file: string; line: number; text: string }>>();
  for (const [file, text] of before) {
    if (SUB_INDEX.test(file) || mergedInto.has(file)) continue;
    for (const l of linesWithWords(text)) for (const w of l.words) if (missing.has(w)) origin.set(w, [...(origin.get(w) ?? []), { file, line: l.line, text: l.text }]);
  }
  for (const word of missing) {
    // Blame what most likely dropped it: a changed topic file, else the index.
    const all = origin.get(word) ?? [];
    const holders =
      [(o: { file: string }) => plan.changes.has(o.file) && o.file !== INDEX_FILE, (o: { file: string }) => plan.changes.has(o.file)]
        .map((test) => all.filter(test))
        .find((found) => found.length > 0) ?? all;
    for (const o of holders) {
      const key = `${o.file}:${o.line}`;
      const entry = lost.get(key) ?? { ...o, words: [] };
      if (!entry.words.includes(word)) entry.words.push(word);
      lost.set(key, entry);
    }
  }
  return [...lost.values()];
}

export interface Loss {
  file: string;
  line: number;
  text: string;
  words?: string[];
}

/**
 * A safety net, not a formality: a plan that would lose a word is made again with what it would
 * lose left where it is (index lines stay in the index, files stay as they are, marked
 * `leftAlone`), up to three times. Returns the plan, or what it still loses (the caller refuses,
 * changing nothing). `input` is not changed.
 */
export function planKeepingWords<P>(
  input: Map<string, PlanInputFile>,
  plan: (files: Map<string, PlanInputFile>, keepIndexLines: ReadonlySet<number>) => P,
  lossesOf: (planned: P, files: Map<string, PlanInputFile>) => Loss[],
  leftAloneBecause: string,
  /** The plan already made from `input` as it is, if any: not made again. */
  first?: P,
): { plan: P; lost: Loss[] } {
  const files = new Map(input);
  const keepIndexLines = new Set<number>();
  for (let attempt = 0; ; attempt++) {
    const planned = attempt === 0 && first !== undefined ? first : plan(files, keepIndexLines);
    const lost = lossesOf(planned, files);
    if (lost.length === 0 || attempt === 3) return { plan: planned, lost };
    for (const { file, line } of lost) {
      if (file === INDEX_FILE) keepIndexLines.add(line);
      else if (files.has(file) && !files.get(file)!.leftAlone) files.set(file, { ...files.get(file)!, leftAlone: leftAloneBecause });
    }
  }
}
