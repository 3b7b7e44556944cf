/*
 * Standing rules: the lines of an index that tell the agent how to behave every time ("never push
 * to main", "other repos are READ-ONLY", "절대 커밋하지 마", "不要修改生成的文件"). A pointer's hook is
 * the agent's only view of a memory it has not opened, so restructuring must keep a rule's words
 * in what the agent loads. Pure.
 */

/** Words that make a clause a rule: imperatives, negations and the markers people use for rules. */
const RULE_MARKER = new RegExp(
  [
    String.raw`\b(?:always|never|must|mustn['’]t|don['’]?t|do\s+not|does\s+not|doesn['’]t|cannot|can['’]t|shouldn['’]t|should\s+not|won['’]t|avoid|only|read[- ]only|important|required|forbidden|prohibited|mandatory|instead\s+of)\b`,
    // Korean, Chinese, Japanese: never/always/must/don't/forbidden.
    '절대|하지\\s*마|하지\\s*말|금지|반드시|항상|않도록|不要|不得|不能|别|禁止|必须|务必|總是|总是|永远|只能|一律|しない|しないで|禁止|必ず|絶対|常に',
  ].join('|'),
  'i',
);

/** Where a clause ends: sentence ends, dashes, semicolons, brackets, and their CJK forms. */
const CLAUSE_BREAK = /(?<=[.!?])\s+|[;；。！？]|\s[—–-]\s|[()（）[\]]/;

/** Words as the agent reads them: Latin words and numbers lower-cased, each CJK or Hangul run whole. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu;

/** The link part of a pointer (`[Title](file.md)`): its target is a file name, not a word of the rule. */
const LINK_TARGET = /\]\([^)]*\)/g;

export interface StandingRule {
  /** The clause as written. */
  clause: string;
  /** Its words, lower-cased: the rule is visible while every one of them is in the loaded text. */
  words: string[];
}

/** The words of a text as `standingRules` compares them. */
export function ruleWords(text: string): string[] {
  return (text.replace(LINK_TARGET, ']').toLowerCase().match(WORD) ?? []).map((w) => w.replace(/['’]/g, "'"));
}

/** The rule clauses of one line (none when it states no rule). */
export function standingRules(line: string): StandingRule[] {
  const text = line.replace(LINK_TARGET, ']').replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '');
  if (!RULE_MARKER.test(text)) return [];
  const rules: StandingRule[] = [];
  for (const clause of text.split(CLAUSE_BREAK)) {
    if (!clause || !RULE_MARKER.test(clause)) continue;
    const words = ruleWords(clause);
    if (words.length) rules.push({ clause: clause.trim(), words });
  }
  return rules;
}

/** Whether a line states a standing rule. */
export function isStandingRule(line: string): boolean {
  return standingRules(line).length > 0;
}

/** The set of words in a loaded text, to check rules against. */
export function loadedWords(text: string): Set<string> {
  return new Set(ruleWords(text));
}

/**
 * How many of the rules stated in `before` the agent still sees in `after`: a rule counts when
 * every word of its clause is still loaded (anywhere: a rule may move between lines).
 */
export function rulesStillVisible(before: string, after: string): { before: number; after: number; lost: StandingRule[] } {
  const rules = before.split('\n').flatMap(standingRules);
  const words = loadedWords(after);
  const lost = rules.filter((rule) => !rule.words.every((w) => words.has(w)));
  return { before: rules.length, after: rules.length - lost.length, lost };
}
