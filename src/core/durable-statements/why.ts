/** The reason a user gives with a statement ("…, because…", "— we got burned"), split from the rule. Pure. */

// Whole words in any script: with ASCII \b, "terças" ended in the word "as". "as" gives a reason only
// after a break (", as it is deprecated"), not in "publish it as Zigzag"; so does ", we don't want to…".
const WHY_MARKERS =
  /\s*(?:(?:[—–]|\s-\s|;|,)\s*(?<![\p{L}\p{N}])(as|(?:we|I) (?:don't|do not) want to)|(?:[—–]|\s-\s|;|,)?\s*(?<![\p{L}\p{N}])(because|since|so that|otherwise|we got burned|the reason is|weil|da))(?![\p{L}\p{N}])\s*/iu;

// A rule, then a spaced dash and a plain statement: "never with npm run deploy — npm run deploy skips the smoke tests".
const RULE_WORD = /\b(?:never|always|don't|do not|must|mustn't|only|no longer|avoid)\b/i;
const DASH = /[ \t][—–-][ \t]|[ \t]?[—–][ \t]?/g;
// What continues the rule after a dash rather than giving its reason: "— not npm", "— and…", "— e.g. …", "— use…".
const NOT_A_REASON =
  /^(?:not|no|never|always|only|and|or|but|nor|use|don't|do|please|e\.g|i\.e|eg|ie|except|unless|including|especially|like|such|even|if|when|whenever|then|instead|also|plus|see|just|same|ever|either|neither)\b/i;

/** The reason given after a dash that follows a rule, when what follows reads as a plain statement (three words or more). */
function dashReason(statement: string): { rule: string; why: string } | null {
  for (const match of statement.matchAll(DASH)) {
    const rule = statement.slice(0, match.index).replace(/[\s,;—–-]+$/, '');
    const why = statement.slice(match.index + match[0].length).trim();
    if (rule.length < 12 || !RULE_WORD.test(rule) || NOT_A_REASON.test(why) || why.split(/\s+/).length < 3) continue;
    if (/[—–:]/.test(why) || /[?？]\s*$/.test(why)) continue;
    return { rule, why };
  }
  return null;
}

export function whyOf(statement: string): { rule: string; why: string | null } {
  const match = WHY_MARKERS.exec(statement);
  const dashed = dashReason(statement);
  if (dashed && (!match || match.index < 12 || statement.indexOf(dashed.why) <= match.index)) return dashed;
  if (!match || match.index < 12) return { rule: statement, why: null };
  const rule = statement.slice(0, match.index).replace(/[\s,;—–-]+$/, '');
  const why = statement.slice(match.index + match[0].length).trim();
  const lead = (match[1] ?? match[2])!.toLowerCase();
  // "because of the audit" reads as a reason; "the reason is X" as X.
  return { rule, why: why ? (lead === 'the reason is' ? why : `${lead} ${why}`) : null };
}
