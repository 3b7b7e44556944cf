/**
 * The local extraction engine: finds the rare durable statements among what a user typed
 * (src/core/durable-statements.ts judges them) and turns each into a memory. Pure.
 */
import { findRelativeDates } from '../core/dates.js';
import { defaultWhy, HOW_TO_APPLY } from '../core/generated-text.js';
import { CJK } from '../core/tokenize.js';
import type { MemoryType } from '../core/taxonomy.js';
import { basisOf, type DurableStatement } from '../core/durable-statements.js';

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

const MAX_NAME = 60;
const MAX_DESCRIPTION = 140;

function shorten(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  if (oneLine.length <= max) return oneLine;
  const cut = oneLine.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:—–-]+$/, '')}…`;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

// What opens a statement without naming it: "From now on, write…" is named "Write…", not "From now on".
const NAME_LEAD = /^(?:(?:ok|okay|yes|yeah|yep|great|good|perfect|also|and|but|so|please|pls|from now on|going forward|moving forward|in the future|henceforth)(?:[,!.:]\s*|\s+))+/i;

const DESCRIPTION_LEAD: Record<MemoryType, string> = {
  user: 'About the user',
  feedback: 'User rule',
  project: 'Project fact',
  reference: 'Where to look',
};

/**
 * The text up to its first clause break: a comma, semicolon or dash, or a colon before a space.
 * Never inside a `code span`, a URL or a time ("test:e2e", "https://", "09:00" are not breaks).
 */
function firstClause(text: string): string {
  let code = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '`') code = !code;
    else if (!code && (/[,;，；：—–]/.test(c) || (c === ':' && /\s/.test(text[i + 1] ?? ' ')))) return text.slice(0, i).trim();
  }
  return text.trim();
}

/** A memory for a durable statement, its relative dates made absolute against `anchor` (the message's time). */
export function proposeMemory(found: DurableStatement, anchor: Date): ProposedMemory {
  const statement = capitalize(absoluteDates(found.statement, anchor).replace(/[\s.。]+$/, ''));
  const why = found.why ? absoluteDates(found.why, anchor).replace(/[\s.。]+$/, '') : null;
  const named = capitalize(statement.replace(NAME_LEAD, '')) || statement;
  const name = shorten(firstClause(named) || named, MAX_NAME);
  const described = shorten(statement, MAX_DESCRIPTION);
  // The description must say more than the name: lint calls one equal to the name vague.
  const description = described === name ? shorten(`${DESCRIPTION_LEAD[found.type]}: ${statement}`, MAX_DESCRIPTION) : described;
  // A sentence in Chinese or Japanese ends with its own full stop.
  const lines = [`${statement}${CJK.test(statement.at(-1) ?? '') ? '。' : '.'}`];
  if (found.type === 'feedback' || found.type === 'project') {
    lines.push('', `**Why:** ${why ?? defaultWhy(basisOf(found), anchor.toISOString().slice(0, 10))}.`, `**How to apply:** ${HOW_TO_APPLY[found.type]}`);
  } else if (why) {
    lines.push('', `**Why:** ${why}.`);
  }
  return { type: found.type, name, description, body: lines.join('\n') };
}
