/*
 * What a planned change does to what the agent sees: the part of MEMORY.md it loads, the standing
 * rules in it, and the files written. Every word may stay on disk while the agent loses sight of
 * it, so refactor and dream both report this. Pure: files before and planned changes in, numbers out.
 */
import { messages } from './messages.js';
import { redactSecrets } from './secrets.js';
import { rulesStillVisible, ruleWords } from './standing-rules.js';
import { INDEX_FILE } from './taxonomy.js';
import { loadIndex } from './load-model.js';

export interface LoadedSize {
  lines: number;
  /** UTF-16 units, as Claude Code measures the index. */
  characters: number;
  words: number;
}

export type FileChangeKind = 'created' | 'changed' | 'deleted';

export interface FileChangeSummary {
  path: string;
  change: FileChangeKind;
  linesBefore: number;
  linesAfter: number;
}

export interface LostRule {
  /** The clause as written in the index. */
  rule: string;
  /** A file that holds all its words after the change (first in path order), where the agent finds it only by opening that memory. */
  keptIn: string | null;
}

export interface AgentView {
  loaded: { before: LoadedSize; after: LoadedSize };
  /** Distinct words the agent loaded before and no longer loads. */
  wordsNoLongerLoaded: number;
  /** Standing rules in the loaded index, and every one the agent would no longer see. */
  rules: { before: number; after: number; lost: LostRule[] };
  /** Every file written or deleted, in code-point order of the path (MEMORY.md before lower-case names). */
  files: FileChangeSummary[];
  counts: Record<FileChangeKind, number>;
}

const lineCount = (text: string) => (text === '' ? 0 : text.replace(/\r?\n$/, '').split('\n').length);

function sizeOf(loaded: string): LoadedSize {
  return { lines: lineCount(loaded), characters: loaded.length, words: ruleWords(loaded).length };
}

/** The agent's view of `changes` (path → new text, null for a deletion) applied to `before` (path → text). */
export function agentView(before: ReadonlyMap<string, string>, changes: ReadonlyMap<string, string | null>): AgentView {
  const indexBefore = before.get(INDEX_FILE) ?? '';
  const indexAfter = changes.has(INDEX_FILE) ? (changes.get(INDEX_FILE) ?? '') : indexBefore;
  const loadedBefore = loadIndex(indexBefore).loaded;
  const loadedAfter = loadIndex(indexAfter).loaded;
  const rules = rulesStillVisible(loadedBefore, loadedAfter);
  const wordsAfter = new Set(ruleWords(loadedAfter));
  const files = [...changes]
    .map(([path, text]): FileChangeSummary => {
      const old = before.get(path);
      const change: FileChangeKind = text === null ? 'deleted' : old === undefined ? 'created' : 'changed';
      return { path, change, linesBefore: lineCount(old ?? ''), linesAfter: lineCount(text ?? '') };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const holder = holderOf(before, changes);
  const counts = { created: 0, changed: 0, deleted: 0 };
  for (const file of files) counts[file.change]++;
  return {
    loaded: { before: sizeOf(loadedBefore), after: sizeOf(loadedAfter) },
    wordsNoLongerLoaded: [...new Set(ruleWords(loadedBefore))].filter((w) => !wordsAfter.has(w)).length,
    rules: { before: rules.before, after: rules.after, lost: rules.lost.map((r) => ({ rule: redactSecrets(r.clause), keptIn: holder(r.words) })) },
    files,
    counts,
  };
}

/** Where a rule's words are after the change: the first file but the index, in path order, holding every one of them. */
function holderOf(before: ReadonlyMap<string, string>, changes: ReadonlyMap<string, string | null>): (words: readonly string[]) => string | null {
  const after = new Map(before);
  for (const [path, text] of changes) {
    if (text === null) after.delete(path);
    else after.set(path, text);
  }
  after.delete(INDEX_FILE);
  const paths = [...after.keys()].sort();
  // Word sets are made only when a rule is lost, once per file.
  const words = new Map<string, Set<string>>();
  const wordsOf = (path: string) => words.get(path) ?? words.set(path, new Set(ruleWords(after.get(path)!))).get(path)!;
  return (rule) => paths.find((path) => rule.every((w) => wordsOf(path).has(w))) ?? null;
}

/** The summary lines: what the agent loads, its standing rules (each lost one named), the file counts. */
export function agentViewLines(view: AgentView, dryRun: boolean): string[] {
  return [
    messages.agentViewLoaded(view.loaded.before, view.loaded.after, view.wordsNoLongerLoaded),
    messages.agentViewRules(view.rules.before, view.rules.after),
    ...view.rules.lost.map((lost) => `  ${messages.agentViewRuleLost(lost.rule, lost.keptIn)}`),
    messages.agentViewFiles(view.counts, dryRun),
  ];
}

const MAX_REASONS = 6;

/** One line per file: what happens to it, its line counts and its reasons. */
export function fileLines(view: AgentView, reasons: ReadonlyMap<string, readonly string[]> = new Map()): string[] {
  return view.files.map((file) => {
    const why = reasons.get(file.path) ?? [];
    const lines = file.change === 'created' ? file.linesAfter : file.linesBefore;
    const delta = file.change === 'changed' ? `${file.linesBefore} → ${file.linesAfter} lines` : `${lines} line${lines === 1 ? '' : 's'}`;
    // A file changed for many reasons (a hundred dropped pointers) names a few; --json has them all.
    const shown = why.length > MAX_REASONS ? [...why.slice(0, MAX_REASONS - 1), `and ${why.length - MAX_REASONS + 1} more (--json lists them)`] : why;
    return `  ${file.change.padEnd(7)} ${file.path} (${delta})${shown.length ? `: ${shown.join('; ')}` : ''}`;
  });
}
