import { disabledSpans, isDisabled } from './directives.js';
import { ruleSetting, type LintConfig } from './config.js';
import { RULES } from './rules/index.js';
import { buildModel, type RawDirectory } from './source.js';
import type { Finding, MemoryDirModel, Rule, TextEdit } from './types.js';

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
    rule.check(model, (report) => {
      const finding: Finding = { ...report, ruleId: rule.id, ruleName: rule.name, severity: setting };
      // A rule not marked fixable does not get to change files.
      if (!rule.fixable || (finding.fix && !writable(finding.fix.file))) delete finding.fix;
      if (!isDisabled(finding, rule, spansFor(finding.file))) findings.push(finding);
    });
  }
  return findings.sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.ruleId.localeCompare(b.ruleId),
  );
}

/** Two edits touch the same text; insertions at the same point do not overlap. */
function overlaps(a: TextEdit, b: TextEdit): boolean {
  if (a.start === a.end && b.start === b.end) return false;
  if (a.start === a.end) return a.start > b.start && a.start < b.end;
  if (b.start === b.end) return b.start > a.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
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
    let text = texts.get(file) ?? '';
    const accepted: TextEdit[] = [];
    for (const edits of fixes) {
      if (edits.some((e) => accepted.some((a) => overlaps(a, e)))) continue;
      accepted.push(...edits);
      applied++;
    }
    // Apply from the end so earlier offsets stay valid; stable for same-point inserts.
    const ordered = accepted.map((e, i) => ({ e, i })).sort((x, y) => y.e.start - x.e.start || y.i - x.i);
    for (const { e } of ordered) text = text.slice(0, e.start) + e.text + text.slice(e.end);
    next.set(file, text);
  }
  return { texts: next, applied };
}

export const MAX_FIX_PASSES = 10;

/** Lint, fix, re-lint until nothing fixable remains (at most 10 passes). Pure. */
export function fixDirectory(raw: RawDirectory, config: LintConfig, rules: readonly Rule[] = RULES): { raw: RawDirectory; findings: Finding[]; passes: number } {
  let current = raw;
  let findings = lintDirectory(current, config, rules);
  let passes = 0;
  while (passes < MAX_FIX_PASSES && findings.some((f) => f.fix)) {
    const texts = new Map([...current.files].map(([k, v]) => [k, v.text]));
    const { texts: fixed, applied } = applyFixPass(texts, findings);
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
  return { raw: current, findings, passes };
}
