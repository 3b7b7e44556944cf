/**
 * A statement said again: which existing memory it restates, whether it contradicts that memory's
 * claim, and whether it says the claim changed. Pure: memories come in as their fields and body.
 *
 * A memory's statements are its name and description, its claim (the first line of its own text:
 * the rule or fact, not memdir's generated sentences) and each dated update added since; a
 * statement restates the memory when one of them is a near-duplicate of it by the one measure
 * memdir has (token-set Jaccard, src/core/similarity.ts).
 */
import { isGeneratedLine } from '../core/generated-text.js';
import { jaccard, tokenSet } from '../core/similarity.js';
import { tokenize } from '../core/tokenize.js';

/** `**Update (2026-12-03):** …` or `**Update (2026-12-03, session abc):** …`: what extract adds to a memory. */
const UPDATE_LINE = /^\*\*Update \((\d{4}-\d\d-\d\d)(?:, session [^)]*)?\):\*\*\s*(.*)$/;
const REASON_LINE = /^\*\*(?:Why|How to apply):\*\*/;
// "Commits: 20+", "**Status:** done", "작성: 2026-05-12", "Durable gotchas:": a field or a label of a hand-kept record, not the memory's rule or fact.
const FIELD_LINE = /^(?:[-*+]\s+)?(?:\*\*)?[^\s:*]+(?:\s[^\s:*]+){0,2}(?:\*\*)?:(?:\*\*)?(?:\s|$)/u;

export interface MemoryText {
  name?: string | undefined;
  description?: string | undefined;
  body: string;
}

/** The parts of a memory's body: its own text (before the first update line), its claim in it, and the updates. */
export interface BodyParts {
  /** Lines before the first `**Update (…):**` line (trailing blank lines dropped). */
  own: string[];
  /** Index in `own` of the claim: the first line of three words or more that is not a heading, a Why/How line, a `Field: value` line or a generated sentence; -1 when none. */
  claim: number;
  /** The update lines and what follows each, as written. */
  rest: string[];
  /** Each update line's date and text. */
  updates: Array<{ day: string; text: string }>;
}

export function bodyParts(body: string): BodyParts {
  const lines = body.replace(/\r\n/g, '\n').split('\n');
  const first = lines.findIndex((line) => UPDATE_LINE.test(line.trim()));
  const own = first === -1 ? lines : lines.slice(0, first);
  const rest = first === -1 ? [] : lines.slice(first);
  while (own.length > 0 && !own.at(-1)!.trim()) own.pop();
  while (own.length > 0 && !own[0]!.trim()) own.shift();
  const claim = own.findIndex((line) => {
    const text = line.trim();
    // A bare path or name ("core/agents/init.py") is no rule: a claim says something in words.
    return text.split(/\s+/).length >= 3 && !text.startsWith('#') && !REASON_LINE.test(text) && !FIELD_LINE.test(text) && !isGeneratedLine(text);
  });
  const updates = rest.flatMap((line) => {
    const match = UPDATE_LINE.exec(line.trim());
    return match ? [{ day: match[1]!, text: match[2]! }] : [];
  });
  return { own, claim, rest, updates };
}

/** A markdown line as plain words: list marks and emphasis dropped. */
export function plainLine(line: string): string {
  return line
    .trim()
    .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/\*\*|__|`/g, '')
    .trim();
}

/** Lower-case words only: "That's what I want." and "that's what i want" are the same words. */
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** What a statement is compared with in a memory, prepared once per memory. */
export interface ComparedMemory {
  /** Its texts as search terms. */
  terms: Array<Set<string>>;
  /** Its name and texts as plain lower-case words. */
  words: string[];
}

/**
 * A memory's texts a statement is compared with: its name and description, its claim line, its own
 * text (without Why/How lines: a statement of several lines is one claim) and its updates' texts.
 */
export function comparedMemory(memory: MemoryText): ComparedMemory {
  const parts = bodyParts(memory.body);
  const own = parts.own.filter((line) => line.trim() && !REASON_LINE.test(line.trim()) && !isGeneratedLine(line)).map(plainLine);
  const texts = [
    `${memory.name ?? ''} ${memory.description ?? ''}`,
    ...(parts.claim === -1 ? [] : [plainLine(parts.own[parts.claim]!)]),
    own.join(' '),
    ...parts.updates.map((u) => u.text.replace(/\*\*Why:\*\*.*$/, '')),
  ];
  return { terms: texts.map(tokenSet), words: [memory.name ?? '', ...texts].map(words) };
}

/**
 * How near `statement` is to the memory: the best Jaccard over its texts (`comparedMemory`); 1 when
 * it is word for word one of them (a statement with no search term at all, "That's what I want.",
 * is compared that way only).
 */
export function restatementScore(statement: string, memory: MemoryText | ComparedMemory): number {
  const compared = 'terms' in memory ? memory : comparedMemory(memory);
  const said = words(statement);
  if (said && compared.words.includes(said)) return 1;
  const terms = tokenSet(statement);
  return Math.max(0, ...compared.terms.map((set) => jaccard(terms, set)));
}

/** A statement's terms that are said (positive) and that are denied (in the scope of a negation). */
interface Polarity {
  said: Set<string>;
  denied: Set<string>;
}

// A negation covers the rest of its clause: "never with npm run deploy", "instead of make ship", "no longer X".
const NEGATION =
  /\b(?:not|never|no longer|no|don't|do not|doesn't|does not|didn't|did not|won't|shouldn't|should not|can't|cannot|avoid|stop using|hate|dislike|instead of|rather than|switched from|moved from|migrated from|anymore|any more)\b|n't\b/i;
// Clause breaks: punctuation, dashes and "but" (a negation inside a clause splits it itself: "use pnpm and never npm").
const CLAUSE_BREAK = /[,;:.!?()\u2014\u2013]|\s-\s|\bbut\b/i;

function polarity(text: string): Polarity {
  const said = new Set<string>();
  const denied = new Set<string>();
  const normalized = text.replace(/[\u2018\u2019]/g, "'");
  for (const clause of normalized.split(CLAUSE_BREAK)) {
    if (!clause?.trim()) continue;
    const negation = NEGATION.exec(clause);
    // "… anymore" denies what comes before it; every other negation what comes after.
    const denies = negation ? (/^any ?more$/i.test(negation[0]) ? clause.slice(0, negation.index) : clause.slice(negation.index + negation[0].length)) : '';
    const before = negation ? (/^any ?more$/i.test(negation[0]) ? '' : clause.slice(0, negation.index)) : clause;
    for (const term of tokenize(before)) said.add(term);
    for (const term of tokenize(denies)) denied.add(term);
  }
  return { said, denied };
}

/**
 * Terms one statement says and the other denies ("make ship" in "we deploy with make ship" and in
 * "… instead of make ship"). A term a statement both says and denies tells nothing and is left out.
 * Empty when the two do not contradict each other as far as words show.
 */
export function contradictingTerms(earlier: string, later: string): string[] {
  const a = polarity(earlier);
  const b = polarity(later);
  const only = (p: Polarity, side: 'said' | 'denied') => new Set([...p[side]].filter((term) => !(side === 'said' ? p.denied : p.said).has(term)));
  const [aSaid, aDenied, bSaid, bDenied] = [only(a, 'said'), only(a, 'denied'), only(b, 'said'), only(b, 'denied')];
  return [...new Set([...[...aSaid].filter((t) => bDenied.has(t)), ...[...aDenied].filter((t) => bSaid.has(t))])];
}

// What a user says when a rule or fact changed, not merely restated.
const CHANGE_MARKER = /\b(?:now|no longer|instead|from now on|going forward|from here on|switched|switching|changed|changing|anymore|any more|moved to|migrated|replaced|stopped|no more)\b/i;

/** Whether the statement says that something changed ("now", "no longer", "instead", "from now on", "switched"…). */
export function saysItChanged(statement: string): string | undefined {
  return CHANGE_MARKER.exec(statement.replace(/[\u2018\u2019]/g, "'"))?.[0].toLowerCase();
}

/**
 * When the memory last changed, as far as it says: the latest of its update lines' days (the end of
 * that day: a message on the same day is not known to be later), its `modified` field and its file's
 * mtime. A memory whose time is unknown is never older than a statement.
 */
export function lastChanged(memory: { body: string; modified?: unknown; mtimeMs?: number | undefined }): number {
  const times: number[] = [];
  for (const update of bodyParts(memory.body).updates) {
    const day = Date.parse(`${update.day}T00:00:00Z`);
    if (!Number.isNaN(day)) times.push(day + 24 * 3600 * 1000 - 1);
  }
  if (typeof memory.modified === 'string' || memory.modified instanceof Date) {
    const modified = new Date(memory.modified).getTime();
    if (!Number.isNaN(modified)) times.push(modified);
  }
  if (memory.mtimeMs !== undefined) times.push(memory.mtimeMs);
  return times.length > 0 ? Math.max(...times) : Number.POSITIVE_INFINITY;
}

/** `**Update (day, session id):** text`: a dated line added to a memory, naming the session it came from. */
export function updateLine(day: string, sessionId: string | null, text: string): string {
  return `**Update (${day}${sessionId ? `, session ${sessionId}` : ''}):** ${text}`;
}

/** The memory's claim as words (its description when its body has none). */
export function claimText(memory: MemoryText): string {
  const parts = bodyParts(memory.body);
  return parts.claim === -1 ? (memory.description ?? '') : plainLine(parts.own[parts.claim]!);
}

/**
 * The body of a memory whose claim the user changed: the claim replaced by `proposed` (the new
 * memory's text), the updates kept, and `note(was)` added at the end, `was` being the text replaced.
 * A memory in the shape memdir writes (the claim and its Why/How lines) gets `proposed` whole: its
 * old reason belongs to the old claim. Any other memory keeps its own lines but the claim's.
 */
export function replacedBody(body: string, proposed: string, note: (was: string) => string): string {
  const parts = bodyParts(body);
  const proposedLines = proposed.trim().split('\n');
  const memdirShaped = parts.own.every((line, i) => i === parts.claim || !line.trim() || REASON_LINE.test(line.trim()));
  let own: string[];
  let was: string[];
  if (parts.claim === -1 || memdirShaped) {
    own = proposedLines;
    // The old rule and the user's reason for it; its How to apply only restated the rule.
    was = parts.own.filter((line) => line.trim() && !isGeneratedLine(line) && !/^\*\*How to apply/i.test(line.trim()));
  } else {
    own = parts.own.map((line, i) => (i === parts.claim ? proposedLines[0]! : line));
    was = [parts.own[parts.claim]!];
  }
  const rest = [...parts.rest];
  while (rest.length > 0 && !rest.at(-1)!.trim()) rest.pop();
  const quoted = was.map((line) => line.trim()).join(' ');
  return [...own, '', ...(rest.length > 0 ? [...rest, ''] : []), note(quoted)].join('\n');
}
