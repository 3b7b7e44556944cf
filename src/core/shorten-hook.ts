import { isStandingRule } from './standing-rules.js';

/*
 * Shortening a pointer's hook without cutting its rule. A hook is cut at clause boundaries only, and
 * a clause that states a rule ("never …", "READ-ONLY", "don't ask …") is never cut: the agent sees
 * only the hook of a memory it has not opened. Pure.
 */

/** A clause of a hook with the punctuation or dash that ends it; joined, the clauses are the hook. */
interface Clause {
  text: string;
  rule: boolean;
  parenthetical: boolean;
}

/**
 * A clause ends after a sentence end (not an abbreviation's dot), a semicolon or a spaced dash; a
 * parenthetical is a clause of its own, with the punctuation after it (which outlives it).
 */
const CLAUSE = /[(（][^()（）]*[)）][.!?;；。！？]*|(?:\b(?:e\.g|i\.e|etc|vs|cf)\.|[^(（.!?;；。！？\s]|\s(?![—–-]\s)|[.!?](?!\s|$))+(?:[.!?;；。！？]+|\s[—–-](?=\s))?|[\s\S]/gu;
const EXAMPLE = /,?\s*\b(?:e\.g\.?|eg\.|for example|for instance|such as)(?:[^,;—–()]|\.(?!\s|$))*?(?=\s*[,;—–()]|\.?\s*$)/giu;
const DATE = /,?\s*(?:\b(?:on|since|as of|updated|from)\s+)?\b\d{4}-\d{2}(?:-\d{2})?\b/giu;

function clauses(hook: string): Clause[] {
  return (hook.match(CLAUSE) ?? []).map((text) => ({ text, rule: isStandingRule(text), parenthetical: /^\s*[(（]/.test(text) }));
}

/** Spaces collapsed, no space before punctuation, no separator left dangling at either end. */
function tidy(text: string): string {
  return (
    text
      .replace(/\s+/g, ' ')
      .replace(/\s+([,.;:!?)）])/g, '$1')
      // Separators left at either end go; a dash that is part of a word ("-q", "x-") stays.
      .replace(/^(?:[\s,;:]+|[—–-]+(?=\s|$))+/u, '')
      .replace(/(?:[\s,;:]+|(?<=\s|^)[—–-]+)+$/u, '')
  );
}

/** The hook without a leading repeat of the title (the title is on the line already). */
function withoutTitle(hook: string, title: string): string {
  const head = title.trim().toLowerCase();
  if (!head || !hook.toLowerCase().startsWith(head)) return hook;
  const rest = hook.slice(head.length).replace(/^[\s:：—–-]+/, '');
  return rest || hook;
}

/** A clause without a boundary: cut at its last comma that fits, else at a word, marked "…". */
function cutClause(text: string, room: number): string {
  const comma = text.lastIndexOf(',', room);
  if (comma > room / 2) return text.slice(0, comma);
  const cut = text.slice(0, room - 1);
  const space = cut.lastIndexOf(' ');
  return `${tidy(space > room / 2 ? cut.slice(0, space) : cut)}…`;
}

/**
 * `hook` shortened to at most `room` characters where it can be: first parentheticals, examples
 * ("e.g. …", "such as …"), dates and a repeat of `title` go, then whole clauses from the end —
 * never a clause that states a rule, so a hook whose rules alone are longer stays longer than
 * `room`. A hook with no rule keeps at least its first clause, cut at a comma if it must be;
 * `cutRules` cuts rules that way too (better than the whole pointer leaving what the agent loads).
 */
export function shortenHook(hook: string, room: number, title = '', cutRules = false): string {
  const fits = (parts: Clause[]) => tidy(parts.map((c) => c.text).join('')).length <= room;
  let parts = clauses(tidy(hook));
  if (fits(parts)) return tidy(hook);
  const steps: Array<(c: Clause, i: number) => Clause> = [
    (c) => (c.parenthetical && !c.rule ? { ...c, text: c.text.replace(/^\s*[(（][\s\S]*[)）]/u, '') } : c),
    (c) => (c.rule ? c : { ...c, text: c.text.replace(EXAMPLE, '') }),
    (c) => (c.rule ? c : { ...c, text: c.text.replace(DATE, '') }),
    (c, i) => (i === 0 ? { ...c, text: withoutTitle(c.text, title) } : c),
  ];
  for (const step of steps) {
    if (fits(parts)) break;
    parts = parts.map(step).filter((c) => tidy(c.text) !== '');
  }
  const keepsOne = !parts.some((c) => c.rule);
  // Punctuation left by a parenthetical ends the clause before it: it goes only with that clause.
  const wordless = (c: Clause) => !/[\p{L}\p{N}]/u.test(c.text);
  for (let i = parts.length - 1; i >= (keepsOne ? 1 : 0) && !fits(parts); i--) {
    if (parts[i]!.rule || wordless(parts[i]!)) continue;
    let end = i + 1;
    while (end < parts.length && wordless(parts[end]!)) end++;
    parts.splice(i, end - i);
  }
  const text = tidy(parts.map((c) => c.text).join(''));
  return text.length > room && (keepsOne || cutRules) ? cutClause(text, room) : text;
}
