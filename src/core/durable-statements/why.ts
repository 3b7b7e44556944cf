/** The reason a user gives with a statement ("…, because…", "— we got burned"), split from the rule. Pure. */

// Whole words in any script: with ASCII \b, "terças" ended in the word "as". "as" gives a reason only
// after a break (", as it is deprecated"), not in "publish it as Zigzag"; so does ", we don't want to…".
const WHY_MARKERS =
  /\s*(?:(?:[—–]|\s-\s|;|,)\s*(?<![\p{L}\p{N}])(as|(?:we|I) (?:don't|do not) want to)|(?:[—–]|\s-\s|;|,)?\s*(?<![\p{L}\p{N}])(because|since|so that|otherwise|we got burned|the reason is|weil|da))(?![\p{L}\p{N}])\s*/iu;

export function whyOf(statement: string): { rule: string; why: string | null } {
  const match = WHY_MARKERS.exec(statement);
  if (!match || match.index < 12) return { rule: statement, why: null };
  const rule = statement.slice(0, match.index).replace(/[\s,;—–-]+$/, '');
  const why = statement.slice(match.index + match[0].length).trim();
  const lead = (match[1] ?? match[2])!.toLowerCase();
  // "because of the audit" reads as a reason; "the reason is X" as X.
  return { rule, why: why ? (lead === 'the reason is' ? why : `${lead} ${why}`) : null };
}
