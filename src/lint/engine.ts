import { disabledSpans, isDisabled } from './directives.js';
import type { LintConfig } from '../config/validate.js';
import { ruleOptions, ruleSetting } from './settings.js';
import { RULES } from './rules/index.js';
import { buildModel, type RawDirectory } from '../core/dir-model.js';
import type { MemoryDirModel } from '../core/dir-model.js';
import type { Finding, Rule, TextEdit } from './types.js';
import { messages } from '../core/messages.js';
import { rulesStillVisible } from '../core/standing-rules.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { loadIndex } from '../core/load-model.js';

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Run every enabled rule over a directory. Pure: the raw text is all it reads. */
export function lintDirectory(raw: RawDirectory, config: LintConfig, rules: readonly Rule[] = RULES): Finding[] {
  return lintModel(buildModel(raw, { skipIndex: config.skipIndex }), config, rules);
}

/** Run every enabled rule over a directory already parsed (callers that also need the model parse once). */
export function lintModel(model: MemoryDirModel, config: LintConfig, rules: readonly Rule[] = RULES): Finding[] {
  const texts = new Map([...(model.index ? [model.index] : []), ...model.topics].map((source) => [source.path, source.text]));
  const spansByFile = new Map<string, ReturnType<typeof disabledSpans>>();
  const spansFor = (file: string) => {
    let spans = spansByFile.get(file);
    if (!spans) {
      spans = disabledSpans(texts.get(file) ?? '');
      spansByFile.set(file, spans);
    }
    return spans;
  };
  // A fix may create a missing file or edit one memdir holds as text it can write back; never a file it left alone or only reads.
  const writable = (file: string) => (texts.has(file) || !model.files.has(file)) && !model.readOnly.has(file);
  const findings: Finding[] = [];
  for (const rule of rules) {
    const setting = ruleSetting(rule, config);
    if (setting === 'off') continue;
    rule.check(
      model,
      (report) => {
        const { atMostWarning, ...reported } = report;
        const finding: Finding = { ...reported, ruleId: rule.id, ruleName: rule.name, severity: atMostWarning && setting === 'error' ? 'warning' : setting };
        // A rule not marked fixable does not get to change files.
        if (!rule.fixable || (finding.fix && !writable(finding.fix.file))) delete finding.fix;
        if (!isDisabled(finding, rule, spansFor(finding.file))) findings.push(finding);
      },
      ruleOptions(rule, config),
    );
  }
  return findings.sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.ruleId.localeCompare(b.ruleId),
  );
}

/** The first index of `sorted` where `reached` holds (it holds from there on): a binary search. */
function firstIndex<T>(sorted: readonly T[], reached: (item: T) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (reached(sorted[mid]!)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The edits accepted so far in one file, kept sorted so that asking whether
 * a new edit overlaps one of them is a binary search, not a scan of them all
 * (a scan made fixing thousands of dead pointers quadratic). Accepted
 * replacements never overlap one another, so sorted by start they are sorted
 * by end too. Insertions at the same point do not overlap.
 */
class AcceptedEdits {
  readonly all: TextEdit[] = [];
  private readonly replacements: TextEdit[] = [];
  private readonly insertions: number[] = [];

  overlaps(edit: TextEdit): boolean {
    const isInsertion = edit.start === edit.end;
    // Of the replacements starting before the edit ends (an insertion: before its point), only the last can reach into it.
    const before = this.replacements[firstIndex(this.replacements, (r) => r.start >= (isInsertion ? edit.start : edit.end)) - 1];
    if (before && before.end > edit.start) return true;
    if (isInsertion) return false;
    const inside = this.insertions[firstIndex(this.insertions, (point) => point > edit.start)];
    return inside !== undefined && inside < edit.end;
  }

  add(edit: TextEdit): void {
    this.all.push(edit);
    if (edit.start === edit.end)
      this.insertions.splice(
        firstIndex(this.insertions, (point) => point > edit.start),
        0,
        edit.start,
      );
    else
      this.replacements.splice(
        firstIndex(this.replacements, (r) => r.start > edit.start),
        0,
        edit,
      );
  }
}

/** `text` with non-overlapping edits applied in one sweep; insertions at one point keep their order, before a replacement starting there. */
function applyEdits(text: string, edits: TextEdit[]): string {
  const ordered = edits
    .map((edit, order) => ({ edit, order }))
    .sort((a, b) => a.edit.start - b.edit.start || Number(a.edit.end > a.edit.start) - Number(b.edit.end > b.edit.start) || a.order - b.order);
  const pieces: string[] = [];
  let cursor = 0;
  for (const { edit } of ordered) {
    pieces.push(text.slice(cursor, edit.start), edit.text);
    cursor = Math.max(cursor, edit.end);
  }
  pieces.push(text.slice(cursor));
  return pieces.join('');
}

/**
 * Apply the non-overlapping edits of one pass to each file. Edits that
 * overlap an earlier one are left for the next pass; insertions at the same
 * point are all applied, in finding order.
 */
export function applyFixPass(texts: Map<string, string>, findings: Finding[]): { texts: Map<string, string>; applied: number } {
  const byFile = new Map<string, TextEdit[][]>();
  for (const finding of findings) {
    if (!finding.fix) continue;
    const list = byFile.get(finding.fix.file) ?? [];
    list.push(finding.fix.edits);
    byFile.set(finding.fix.file, list);
  }
  const next = new Map(texts);
  let applied = 0;
  for (const [file, fixes] of byFile) {
    const accepted = new AcceptedEdits();
    for (const edits of fixes) {
      if (edits.some((edit) => accepted.overlaps(edit))) continue;
      for (const edit of edits) accepted.add(edit);
      applied++;
    }
    next.set(file, applyEdits(texts.get(file) ?? '', accepted.all));
  }
  return { texts: next, applied };
}

export const MAX_FIX_PASSES = 10;

/** Whether `after` takes a standing rule's words out of what the agent loads of the index `before`. */
function hidesRule(before: string, after: string): boolean {
  return rulesStillVisible(loadIndex(before).loaded, loadIndex(after).loaded).lost.length > 0;
}

/** A fix told apart by what it replaces and with what, so it is recognized again after other fixes moved it. */
function fixKey(finding: Finding, texts: Map<string, string>): string {
  const text = texts.get(finding.fix!.file) ?? '';
  return [finding.ruleId, finding.fix!.file, ...finding.fix!.edits.flatMap((e) => [text.slice(e.start, e.end), e.text])].join('\u0000');
}

/**
 * One fix pass, less the fixes to MEMORY.md that would take a standing rule out of what the agent
 * loads (a dropped pointer that states one, a pointer pushed past the load limit): when all of them
 * together would, each is taken in finding order only if it keeps every rule loaded.
 */
function applyFixPassKeepingRules(texts: Map<string, string>, findings: Finding[], refused: Set<string>): ReturnType<typeof applyFixPass> {
  const usable = findings.filter((f) => f.fix && !refused.has(fixKey(f, texts)));
  const all = applyFixPass(texts, usable);
  const index = texts.get(INDEX_FILE);
  if (index === undefined || !hidesRule(index, all.texts.get(INDEX_FILE) ?? index)) return all;
  const accepted = usable.filter((f) => f.fix!.file !== INDEX_FILE);
  for (const finding of usable.filter((f) => f.fix!.file === INDEX_FILE)) {
    if (hidesRule(index, applyFixPass(texts, [...accepted, finding]).texts.get(INDEX_FILE) ?? index)) refused.add(fixKey(finding, texts));
    else accepted.push(finding);
  }
  return applyFixPass(texts, accepted);
}

/** Lint, fix, re-lint until nothing fixable remains (at most 10 passes); never a fix that hides a standing rule. Pure. */
export function fixDirectory(raw: RawDirectory, config: LintConfig, rules: readonly Rule[] = RULES): { raw: RawDirectory; findings: Finding[]; passes: number } {
  let current = raw;
  let findings = lintDirectory(current, config, rules);
  let passes = 0;
  const refused = new Set<string>();
  const textsOf = (dir: RawDirectory) => new Map([...dir.files].map(([k, v]) => [k, v.text]));
  while (passes < MAX_FIX_PASSES && findings.some((f) => f.fix)) {
    const texts = textsOf(current);
    const { texts: fixed, applied } = applyFixPassKeepingRules(texts, findings, refused);
    if (applied === 0) break;
    passes++;
    const files = new Map(current.files);
    const present = new Set(current.present);
    for (const [file, text] of fixed) {
      files.set(file, { text, mtimeMs: current.files.get(file)?.mtimeMs ?? Date.now() });
      present.add(file);
    }
    current = { ...current, files, present };
    findings = lintDirectory(current, config, rules);
  }
  const texts = textsOf(current);
  // A refused fix is reported as such, not offered again.
  findings = findings.map((f) => (f.fix && refused.has(fixKey(f, texts)) ? { ...f, fix: undefined, message: `${f.message}; ${messages.fixWouldHideRule()}` } : f));
  return { raw: current, findings, passes };
}
