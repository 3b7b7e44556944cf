/**
 * What a write into the memory directory would break, judged by lint's own rules over the files it
 * touches before and after (docs/hooks.md#guard). Only what the write introduces counts: a finding
 * already there before (an index already over the limit) never blocks an edit that does not make it
 * worse. Pure.
 */
import { rawDirectory } from '../core/dir-model.js';
import { loadIndex } from '../core/load-model.js';
import { INDEX_MAX_BYTES, INDEX_MAX_LINES } from '../core/limits.js';
import { messages } from '../core/messages.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import type { SectionSettings } from '../config/sections.js';
import { lintDirectory } from '../lint/engine.js';
import { RULES } from '../lint/rules/index.js';
import type { Finding } from '../lint/types.js';

export type GuardSettings = SectionSettings<'guard'>;
/** What the guard does about one kind of problem: refuse the write, let it through with a note, or nothing. */
export type GuardAction = 'block' | 'warn' | 'off';
type GuardKey = Exclude<keyof GuardSettings, never>;

/** Each setting of the `guard` section and the lint rules it stands for. */
const RULES_OF: Record<GuardKey, readonly string[]> = {
  indexLimit: ['MEM002', 'MEM003'],
  inlineContent: ['MEM005'],
  secret: ['MEM020'],
  poisoning: ['MEM026'],
  frontmatter: ['MEM010', 'MEM012', 'MEM013'],
  unindexedTopic: ['MEM008'],
  escape: [],
};

export interface GuardVerdict {
  /** Reasons to refuse the write, one line each, for the model to act on. */
  block: string[];
  /** Notes that let the write through (shown to the user). */
  warn: string[];
}

export interface ProposedWrite {
  /** Path of the file relative to its scope's directory (the private directory, or team/), `/` separators. */
  file: string;
  before: string | undefined;
  after: string;
  /** The scope's folder in the memory directory as reasons name it: '' or 'team/'. */
  scope?: string;
  /** The scope's MEMORY.md when the file is a topic file (whether a pointer reaches it). */
  index: string | undefined;
}

/** The rules that scan every line of every file. */
const SCANS = new Set(['MEM020', 'MEM026']);

/** The lines of `after` that `before` does not hold (as many times), in order. */
function addedLines(before: string | undefined, after: string): string {
  const had = new Map<string, number>();
  for (const line of before?.split('\n') ?? []) had.set(line, (had.get(line) ?? 0) + 1);
  return after
    .split('\n')
    .filter((line) => {
      const left = had.get(line) ?? 0;
      if (left > 0) had.set(line, left - 1);
      return left === 0;
    })
    .join('\n');
}

/** A finding is the same one before and after when its rule, file, message (line numbers aside) and the text of its lines are. */
function findingKey(finding: Finding, text: string): string {
  const lines = text.split('\n');
  return [finding.ruleId, finding.file, finding.message.replace(/\d+/g, '#'), lines.slice(finding.line - 1, finding.endLine ?? finding.line).join('\n')].join('\u0000');
}

function lint(write: ProposedWrite, text: string | undefined, ruleIds: Set<string>, ruleOptions: Record<string, Record<string, unknown>>): Finding[] {
  if (text === undefined) return [];
  const files: Record<string, string> = { [write.file]: text };
  if (write.file !== INDEX_FILE && write.index !== undefined) files[INDEX_FILE] = write.index;
  const rules = RULES.filter((rule) => ruleIds.has(rule.id));
  const config = { rules: Object.fromEntries([...ruleIds].map((id) => [id, 'error' as const])), ruleOptions, ignore: [], skipIndex: false };
  return lintDirectory(rawDirectory('', files), config, rules).filter((finding) => finding.file === write.file);
}

/** The index limits: over the limit after the write, and longer than before (an edit that shortens an index over the limit passes). */
function indexLimit(write: ProposedWrite): string | undefined {
  if (write.file !== INDEX_FILE) return undefined;
  const after = loadIndex(write.after);
  // The index as it was matters only when the result is over a limit.
  if (after.lineCount <= INDEX_MAX_LINES && after.byteCount <= INDEX_MAX_BYTES) return undefined;
  const before = write.before === undefined ? undefined : loadIndex(write.before);
  if (after.lineCount > INDEX_MAX_LINES && after.lineCount > (before?.lineCount ?? 0)) return messages.guardIndexLines(`${write.scope ?? ''}${INDEX_FILE}`, after.lineCount, INDEX_MAX_LINES);
  if (after.byteCount > INDEX_MAX_BYTES && after.byteCount > (before?.byteCount ?? 0)) return messages.guardIndexBytes(`${write.scope ?? ''}${INDEX_FILE}`, after.byteCount, INDEX_MAX_BYTES);
  return undefined;
}

/** A lint finding as a reason the model can act on. */
function reason(finding: Finding, write: ProposedWrite): string {
  const file = `${write.scope ?? ''}${write.file}`;
  switch (finding.ruleId) {
    case 'MEM005':
      return messages.guardInlineContent(file, finding.line, finding.endLine ?? finding.line);
    case 'MEM020':
      return messages.guardSecret(file, finding.line, finding.message);
    case 'MEM026':
      return messages.guardPoisoning(file, finding.line, finding.message);
    case 'MEM008':
      return messages.guardUnindexed(file);
    default:
      return messages.guardFrontmatter(file, finding.message);
  }
}

/** The verdict on one write: what it introduces, sorted into block and warn by the `guard` settings. */
export function judgeWrite(write: ProposedWrite, settings: GuardSettings, ruleOptions: Record<string, Record<string, unknown>> = {}): GuardVerdict {
  const verdict: GuardVerdict = { block: [], warn: [] };
  const add = (key: GuardKey, text: string) => {
    const action = settings[key] as GuardAction;
    if (action !== 'off') verdict[action].push(text);
  };
  const keyOf = new Map(Object.entries(RULES_OF).flatMap(([key, ids]) => ids.map((id) => [id, key as GuardKey])));
  const wanted = new Set([...keyOf].filter(([id, key]) => settings[key] !== 'off' && id !== 'MEM002' && id !== 'MEM003').map(([id]) => id));
  // An unindexed topic file is only news when the write creates it; Claude Code writes the file first, then the pointer.
  if (write.before !== undefined || write.index === undefined) wanted.delete('MEM008');
  if (settings.indexLimit !== 'off') {
    const limit = indexLimit(write);
    if (limit) add('indexLimit', limit);
  }
  // The scans of every line (secret, poisoning) are the costly rules: when the lines the write adds hold nothing for
  // them on their own, the rest of the file cannot make them new (what a finding's lines held before is not new).
  const scans = [...wanted].filter((id) => SCANS.has(id));
  if (scans.length > 0 && lint(write, addedLines(write.before, write.after), new Set(scans), ruleOptions).length === 0) for (const id of scans) wanted.delete(id);
  if (wanted.size === 0) return verdict;
  const after = lint(write, write.after, wanted, ruleOptions);
  // Most writes are fine: the file as it was is linted only when the write's result has findings, to tell the new ones apart.
  if (after.length === 0) return verdict;
  const before = new Map<string, number>();
  // Only the rules that found something after the write can have a finding to tell apart.
  for (const finding of lint(write, write.before, new Set(after.map((finding) => finding.ruleId)), ruleOptions)) {
    const key = findingKey(finding, write.before!);
    before.set(key, (before.get(key) ?? 0) + 1);
  }
  for (const finding of after) {
    const key = findingKey(finding, write.after);
    const seen = before.get(key) ?? 0;
    if (seen > 0) {
      before.set(key, seen - 1);
      continue;
    }
    add(keyOf.get(finding.ruleId)!, reason(finding, write));
  }
  return verdict;
}
