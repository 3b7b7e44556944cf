/**
 * The local extraction engine: finds the rare durable statements among what a user typed
 * (src/core/durable-statements.ts judges them) and turns each into a memory. Pure.
 */
import { findRelativeDates } from '../core/dates.js';
import { INDEX_LINE_MAX } from '../core/limits.js';
import { topicFileName } from '../core/paths.js';
import { CJK } from '../core/tokenize.js';
import type { MemoryType } from '../core/taxonomy.js';
import type { DurableStatement } from '../core/durable-statements.js';

export { basisOf, type DurableStatement, findDurableStatement, judgeMessage } from '../core/durable-statements.js';

export interface ProposedMemory {
  type: MemoryType;
  name: string;
  description: string;
  body: string;
}

/** Relative dates in `text` rewritten as absolute ones, anchored at the message's time. */
export function absoluteDates(text: string, anchor: Date): string {
  let out = '';
  let at = 0;
  for (const date of findRelativeDates(text, anchor)) {
    out += `${text.slice(at, date.index)}${date.replacement}`;
    at = date.index + date.text.length;
  }
  return out + text.slice(at);
}

/** The longest name: a few words that say the rule or fact. */
export const MAX_NAME = 60;
const MAX_DESCRIPTION = 140;

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

// What opens a statement without naming it: "From now on, write…" is named "Write…", not "From now on".
const NAME_LEAD =
  /^(?:(?:ok|okay|yes|yeah|yep|great|good|perfect|also|and|but|so|please|pls|from now on|from here on(?: out)?|going forward|moving forward|in the future|henceforth|à l'avenir|désormais|ab jetzt|a partir de ahora|de ahora en adelante|d'ora in poi)(?:[,!.:]\s*|\s+))+|^(?:以后|今后|从现在开始|今後は?|これからは)[，,、\s]*/i;

/**
 * The text up to its first clause break: a comma, semicolon or dash, or a colon before a space.
 * Never inside a `code span`, a parenthesis, a URL or a time ("test:e2e", "https://", "09:00" are not breaks).
 */
function firstClause(text: string): string {
  let code = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '`') code = !code;
    else if (c === '(' || c === '（') depth++;
    else if ((c === ')' || c === '）') && depth > 0) depth--;
    else if (!code && depth === 0 && (/[,;，；：—–]/.test(c) || (c === ':' && /\s/.test(text[i + 1] ?? ' '))) && !(c === ',' && /\d/.test(text[i - 1] ?? '') && /\d/.test(text[i + 1] ?? '')))
      return text.slice(0, i).trim();
  }
  return text.trim();
}

const RELATIVE = new Set(['that', 'who', 'which', 'whose']);

// Words a phrase may end before: a clause ("…until the release ships") or a prepositional phrase ("…from 2026-12-03").
const CONJUNCTION = new Set([
  'until',
  'unless',
  'because',
  'since',
  'so',
  'and',
  'but',
  'or',
  'when',
  'whenever',
  'while',
  'where',
  'if',
  'before',
  'after',
  'except',
  'once',
  'as',
  'than',
  'then',
  'whereas',
]);
const PREPOSITION = new Set(['from', 'for', 'with', 'without', 'in', 'on', 'at', 'by', 'via', 'during', 'into', 'through', 'over', 'under', 'to', 'of', 'about', 'across', 'per', 'like', 'instead']);
// A phrase never ends on a word that needs what follows it.
const DANGLING = new Set([
  ...CONJUNCTION,
  ...PREPOSITION,
  ...RELATIVE,
  'a',
  'an',
  'the',
  'this',
  'that',
  'these',
  'those',
  'my',
  'our',
  'your',
  'their',
  'its',
  'his',
  'her',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'am',
  "it's",
  "we're",
  "i'm",
  "they're",
  "you're",
  'not',
  'no',
  'never',
  'always',
  'only',
  'also',
  'just',
  'do',
  "don't",
  'does',
  "doesn't",
  'should',
  'must',
  'will',
  'would',
  'can',
  'could',
  'may',
  'might',
  'shall',
  'has',
  'have',
  'had',
  'each',
  'every',
  'any',
  'all',
  'some',
  'very',
  'more',
  'most',
  'less',
  'same',
  'other',
  'use',
  'using',
  'i',
  'we',
  'you',
  'they',
  'he',
  'she',
  'it',
  'what',
  'why',
  'how',
  'who',
  'whom',
  'whose',
]);

const bare = (word: string) => word.toLowerCase().replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');

/**
 * Complete phrases that open `text`, best first, each at most `max` characters: the text cut at a
 * clause break or before a conjunction, then before a preposition, then before a relative clause
 * ("comments that…", which restricts what it follows), then (`anyWord`, English only) before any
 * other word. Never inside a `code span` or an open quotation, never ending on a word that needs
 * what follows ("the", "is", "with"), never mid-word, never marked "…": a whole phrase or nothing.
 */
function openingPhrases(text: string, max: number, anyWord: boolean | 'any-language' = false): string[] {
  const words: Array<{ start: number; end: number; code: boolean }> = [];
  let code = false;
  const re = /\S+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const ticks = (m[0].match(/`/g)?.length ?? 0) % 2 === 1;
    words.push({ start: m.index, end: m.index + m[0].length, code: code || m[0].includes('`') });
    if (ticks) code = !code;
  }
  const ascii = /^[\x20-\x7e]*$/.test(text);
  const phrases: Array<{ text: string; rank: number }> = [];
  for (let i = 2; i < words.length; i++) {
    if (words[i]!.code && !words[i]!.start) continue;
    const prefix = text
      .slice(0, words[i]!.start)
      .trim()
      .replace(/[\s,;:—–-]+$/, '');
    if (prefix.length > max || prefix.length < 12 || (prefix.match(/`/g)?.length ?? 0) % 2 === 1) continue;
    const lastWord = words[i - 1]!;
    if ((!lastWord.code && DANGLING.has(bare(prefix.split(/\s+/).at(-1) ?? ''))) || /[([{"“]$/.test(prefix)) continue;
    // A quotation or a parenthesis opened and not closed ("under 'Checkout").
    if (/(?:^|\s)['"“‘][^'"”’]*$/.test(prefix) || (prefix.match(/[([{]/g)?.length ?? 0) > (prefix.match(/[)\]}]/g)?.length ?? 0)) continue;
    const next = bare(text.slice(words[i]!.start, words[i]!.end));
    const broken = /[,;:—–]$/.test(text.slice(0, words[i]!.start).trim());
    const rank = broken || CONJUNCTION.has(next) ? 0 : PREPOSITION.has(next) ? 1 : RELATIVE.has(next) ? 2 : 3;
    if (rank < 3 || (anyWord && ascii) || anyWord === 'any-language') phrases.push({ text: prefix, rank });
  }
  return phrases.sort((a, b) => a.rank - b.rank || b.text.length - a.text.length).map((p) => p.text);
}

// A first clause that is only the condition of the rule: "Whenever you touch the API layer, regenerate the client".
const CONDITION_FIRST = /^(?:when(?:ever)?|if|every time|each time|before|after|once|unless|while|in case)\b/i;

/**
 * The statement as a headline, when that says the same in fewer words: no parenthetical, no leading
 * article or "our", no "gets"/"is" before a participle, no "just" or "please" ("The staging database
 * gets wiped every Sunday night" → "Staging database wiped every Sunday night").
 */
function headline(clause: string): string {
  const text = clause
    .replace(/\s*[(（][^()（）]*[)）]/gu, '')
    .replace(/^(?:the|our|my)\s+(?=\S+\s+\S)/i, '')
    .replace(/\b(?:is|are|gets|get|got|was|were)\s+(?=\w+ed\b|\w+en\b|kept\b|built\b|run\b|set\b|held\b|made\b|done\b|sent\b|shut\b)/gi, '')
    .replace(/\s+(?:just|really|actually|basically|please)\b/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
  return capitalize(text);
}

/** Names for a statement, best first: its first clause (its main clause after a condition), as a headline, then complete phrases that open it. */
function nameCandidates(statement: string): string[] {
  // A lead-in of a few words before a colon ("Grundsätzlich gilt: …", "Rule: …") does not name it.
  const unled = statement
    .replace(NAME_LEAD, '')
    .replace(/^[^\s:：]+(?:[ \t]+[^\s:：]+){0,2}[ \t]*[:：][ \t]+(?=\S)(?![-*•][ \t]|\d+[.)][ \t])/u, '')
    .replace(NAME_LEAD, '');
  const named = capitalize(unled) || statement;
  let clause = (firstClause(named) || named).replace(/[\s.。]+$/, '');
  if (CONDITION_FIRST.test(clause) && clause !== named.replace(/[\s.。]+$/, '')) {
    const main = firstClause(named.slice(named.indexOf(clause) + clause.length).replace(/^[\s,;:，；：—–-]+/, '')).replace(/[\s.。]+$/, '');
    if (main.length >= 8) clause = capitalize(main);
  }
  const names = clause.length <= MAX_NAME ? [clause] : [];
  const short = headline(clause);
  if (short.length <= MAX_NAME && short.length >= 8) names.push(short);
  // Where the clause must be cut: before a clause or a prepositional phrase first, the longest first.
  // Before any word only in English, and only when the clause is too long to be the name itself.
  const phrases = openingPhrases(clause, MAX_NAME, clause.length > MAX_NAME || names.length === 0);
  names.push(...phrases);
  if (names.length === 0) names.push(...openingPhrases(clause, MAX_NAME, 'any-language'));
  // A long clause with no space to cut at (Chinese, Japanese): its first characters, up to a comma of its own if it has one.
  if (names.length === 0)
    names.push(
      [...clause]
        .slice(0, MAX_NAME)
        .join('')
        .replace(/[、，,][^、，,]*$/u, ''),
    );
  return [...new Set(names)].filter(Boolean);
}

/** What the pointer line `- [name](file) — ` leaves of INDEX_LINE_MAX for the hook. */
function hookRoom(type: MemoryType, name: string): number {
  const file = encodeURI(topicFileName(type, name));
  return INDEX_LINE_MAX - `- [${name}](${file}) — `.length;
}

/**
 * The description for `name`: the statement whole when its pointer line has room for it, else what
 * the statement says after the name (the pointer line reads on from the title), else a complete
 * phrase of it. Never the name again, never cut with "…". `strict`: only the first two.
 */
function describe(statement: string, name: string, room: number, strict: boolean): string | undefined {
  const fits = (text: string) => text.length >= 12 && text.length <= Math.min(room, MAX_DESCRIPTION) && text.toLowerCase() !== name.toLowerCase();
  if (fits(statement)) return statement;
  // The rest reads on from the title only after a clause break or from a conjunction ("…, so don't…", "… until…"), not from "of each month".
  const after = statement.toLowerCase().startsWith(name.toLowerCase()) ? statement.slice(name.length) : '';
  const rest = after.replace(/^[\s,;:—–-]+/, '');
  const readsOn = /^\s*[,;:—–-]/.test(after) || CONJUNCTION.has(bare(rest.split(/\s+/)[0] ?? ''));
  if (rest && readsOn && fits(rest)) return rest;
  if (strict) return undefined;
  const limit = Math.min(Math.max(room, 40), MAX_DESCRIPTION);
  const restPhrase = rest && readsOn ? openingPhrases(rest, limit).find(fits) : undefined;
  return restPhrase ?? openingPhrases(statement, limit).find((p) => fits(p) && p.length > name.length);
}

/** The title and the index hook of a memory: both complete, the hook not the title again, the pointer line within its limit. */
function nameAndDescription(statement: string, type: MemoryType, why: string | null, day: string, taken: (name: string) => boolean): { name: string; description: string } {
  const whole = oneLine(statement);
  // Two memories titled alike ("Never deploy" for two rules) are told apart by nothing in the index.
  // When every title it could have is taken, it shares one: a worse cut would say less.
  const candidates = nameCandidates(whole);
  const untaken = candidates.filter((name) => !taken(name));
  const names = untaken.length > 0 ? untaken : candidates;
  for (const name of names) {
    const description = describe(whole, name, hookRoom(type, name), true);
    if (description) return { name, description };
  }
  const dated = `${whole} (${day})`;
  for (const name of names) {
    const room = Math.min(hookRoom(type, name), MAX_DESCRIPTION);
    const fits = (text: string) => text.length >= 12 && text.length <= room && text.toLowerCase() !== name.toLowerCase();
    // Named by its main clause: the hook says the rest ("- [Regenerate the client](…) — whenever you touch the API layer").
    const at = whole.toLowerCase().indexOf(name.toLowerCase());
    const after = at === -1 ? '' : whole.slice(at + name.length);
    const wholeClauses = at > 0 && /[,;:—–]\s*$/.test(whole.slice(0, at)) && (/^\s*$/.test(after) || /^\s*[,;:—–]/.test(after));
    const others = wholeClauses ? `${whole.slice(0, at)} ${after}`.replace(/\s+/g, ' ').replace(/^[\s,;:—–-]+|[\s,;:—–-]+$/g, '') : '';
    const description = describe(whole, name, room, false) ?? [others, why ? `${whole} (${why})` : '', why ?? '', dated].find(fits) ?? openingPhrases(whole, room, true).find(fits);
    if (description) return { name, description };
  }
  // A clause that is its own name with nothing to add, in a language cut only at its clauses: named by
  // its opening words, the hook says it whole ("Sempre escreva os testes" — "Sempre escreva os testes antes do código").
  const clause = names[0] ?? whole;
  for (const name of openingPhrases(clause, MAX_NAME, 'any-language')) {
    const description = describe(whole, name, hookRoom(type, name), true);
    if (description) return { name, description };
  }
  // A long message: the first name whose line has room for an opening phrase of the statement longer than the name.
  for (const name of [...names, ...openingPhrases(clause, MAX_NAME, 'any-language')]) {
    const room = Math.min(hookRoom(type, name), MAX_DESCRIPTION);
    const rest = whole.toLowerCase().startsWith(name.toLowerCase()) ? whole.slice(name.length).replace(/^[\s,;:—–-]+/, '') : '';
    const opening = [rest.length <= room ? rest : '', ...openingPhrases(rest, room, 'any-language'), ...openingPhrases(whole, room, 'any-language').filter((p) => p.length > name.length)].find(
      (p) => p.length >= 12 && p.length <= room,
    );
    if (opening) return { name, description: opening };
  }
  // A message no phrase can be taken from (a path in quotes across the whole line): its words, as many as the line holds.
  const room = Math.min(hookRoom(type, clause), MAX_DESCRIPTION);
  const rest = whole.startsWith(clause) ? whole.slice(clause.length).trim() : whole;
  const words = (rest || whole).slice(0, room + 1).split(/\s+/);
  const description = (words.length > 1 ? words.slice(0, -1).join(' ') : (words[0] ?? '').slice(0, room)).replace(/[\s,;:—–-]+$/, '');
  return { name: clause, description: description.length >= 12 && description.toLowerCase() !== clause.toLowerCase() ? description : dated };
}

// "use A instead of B", "prefer A over B", "A, not B": what to do in place of what (both said by the user).
const IN_PLACE_OF = /^(?:always\s+)?(use|prefer|run|call|write)\s+(.+?)\s*(?:,\s*)?(?:instead of|rather than|over|, not|, never)\s+(.+)$/i;

/** When the statement says what to do in place of what, that as an instruction; else nothing (no sentence every memory shares). */
// "We deploy with make ship, never with npm run deploy": the means to take, and the one not to.
const BY_MEANS_NOT = /\b(with|through|via|using|by)\s+(.+?),\s*(?:never|not)\s+(?:with|through|via|using|by)\s+(.+)$/i;

function howToApply(statement: string): string | null {
  const rule = statement.replace(NAME_LEAD, '');
  const match = IN_PLACE_OF.exec(rule) ?? BY_MEANS_NOT.exec(rule);
  if (!match) return null;
  const [, verb, wanted, instead] = match as unknown as [string, string, string, string];
  if (/[,;:]/.test(wanted) || /[,;:]/.test(instead) || wanted.split(/\s+/).length > 6 || instead.split(/\s+/).length > 6) return null;
  const action = /^(?:prefer|with|through|via|using|by)$/i.test(verb) ? 'use' : verb.toLowerCase();
  return `wherever ${instead} would come up, ${action} ${wanted} instead.`;
}

/**
 * A memory for a durable statement, its relative dates made absolute against `anchor` (the message's
 * time): a title that says it in a few words, the statement whole as the body, **Why:** only with
 * the reason the user gave, **How to apply:** only what the statement itself says to do. A title
 * `taken` by another memory is passed over for the next best.
 */
export function proposeMemory(found: DurableStatement, anchor: Date, taken: (name: string) => boolean = () => false): ProposedMemory {
  const statement = capitalize(absoluteDates(found.statement, anchor).replace(/[\s.。]+$/, ''));
  const why = found.why ? absoluteDates(found.why, anchor).replace(/[\s.。]+$/, '') : null;
  const { name, description } = nameAndDescription(statement, found.type, why, anchor.toISOString().slice(0, 10), taken);
  // A sentence in Chinese or Japanese ends with its own full stop.
  const lines = [`${statement}${CJK.test(statement.at(-1) ?? '') ? '。' : '.'}`];
  const how = found.type === 'feedback' ? howToApply(statement) : null;
  if (why || how) lines.push('');
  if (why) lines.push(`**Why:** ${why}.`);
  if (how) lines.push(`**How to apply:** ${how}`);
  return { type: found.type, name, description, body: lines.join('\n') };
}
