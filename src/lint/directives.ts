import type { Finding, Rule } from './types.js';

const DIRECTIVE = /<!--\s*memdir-(disable|enable)\b([^>]*?)-->/g;

interface Span {
  from: number;
  to: number;
  rules: Set<string> | 'all';
}

/**
 * Inline `<!-- memdir-disable [MEM012 …] -->` … `<!-- memdir-enable [ids] -->`
 * spans of a file: findings of those rules (ids or names; none = all) on
 * lines inside a span are dropped.
 */
export function disabledSpans(text: string): Span[] {
  const spans: Span[] = [];
  if (!text.includes('memdir-')) return spans;
  const open = new Map<string, number>();
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  for (const match of text.matchAll(DIRECTIVE)) {
    const line = lineOf(match.index);
    const ids = match[2]!.split(/[\s,]+/).filter(Boolean);
    const keys = ids.length ? ids : ['*'];
    for (const key of keys) {
      if (match[1] === 'disable') {
        if (!open.has(key)) open.set(key, line);
      } else if (key === '*') {
        for (const [k, from] of open) spans.push({ from, to: line, rules: k === '*' ? 'all' : new Set([k]) });
        open.clear();
      } else {
        const from = open.get(key);
        if (from !== undefined) spans.push({ from, to: line, rules: new Set([key]) });
        open.delete(key);
      }
    }
  }
  for (const [key, from] of open) spans.push({ from, to: Number.POSITIVE_INFINITY, rules: key === '*' ? 'all' : new Set([key]) });
  return spans;
}

export function isDisabled(finding: Finding, rule: Rule, spans: Span[]): boolean {
  return spans.some((s) => finding.line >= s.from && finding.line <= s.to && (s.rules === 'all' || s.rules.has(rule.id) || s.rules.has(rule.name)));
}
