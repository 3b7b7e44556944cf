/**
 * The shape of a message, which every family reads it through: sentences and clauses, the words that
 * open them, questions, lists, pastes and shell lines, the length limits, and the spellings people
 * type fast. Pure.
 */

// Discourse particles that may open a clause before the verb ("ok, please always…").
export const LEAD = String.raw`(?:(?:ok|okay|yes|yeah|yep|great|good|perfect|also|plus|and|but|so|oh|fyi|btw|hey|one more thing|ugh|god|damn|dude|man|seriously|come on|fuck me|jeez|please|pls|just)[,!.:]?\s+)*`;

// A step of a plan ("Then write it into CLAUDE.md, always follow the pattern"), even with "for future reference".
export const PLAN_STEP = /^(?:then|and then|after that|afterwards|finally|first|next,)\s/i;

// A request or question addressed to the assistant about the work at hand.
export const ASKING =
  /^(?:can|could|would|will|should|shall|may|(?:do|did) (?:you|we|I|they|u)\b|does (?:it|this|that|the|he|she|anyone)\b|is|are|isn't|aren't|how|what|why|where|which|who|kannst|könntest|wie|was|wo|warum|(?:please\s+)?(?:suggest|propose|recommend|brainstorm|come up with))\b/i;

// Words that open a sentence without changing what it says: "and please don't…", "oh and DONT…", "in general don't…".
export const OPENERS = /^(?:(?:and|also|oh|plus|but|btw|so|ok|okay|one thing|one more thing|in general|generally|as a rule)[,!.:]?\s+)+/i;

/** The sentences of a message (CJK full stops too). */
export function sentences(text: string): string[] {
  return (
    text
      // Not after a list's number ("1. Asking only once…" is one sentence).
      .split(/(?<=(?<!(?:^|\n)\s*\d{1,3})[.!?。！？])\s+|(?<=[。！？])|\n+/)
      .map((s) => s.trim())
      .filter(Boolean)
  );
}

/** The clauses of a sentence: split at commas, semicolons, colons and dashes. */
export function clauses(sentence: string): string[] {
  return sentence
    .split(/\s*(?:[,;:，；：]|\s[—–-]\s|—)\s*/)
    .map((c) => c.trim())
    .filter(Boolean);
}

// 吗 ends a question clause wherever it stands ("是每次都要这样吗，…").
// So does a last clause that asks without a question mark ("the docs say it is deprecated, what should we use instead").
export const isQuestion = (sentence: string) =>
  /[?？]\s*$/.test(sentence) || /吗(?:[。，,；;！!\s]|$)/.test(sentence) || /[,;]\s*(?:what|how|which|why|where|who) (?:should|do|does|can|could|would|is|are|was|were)\b[^,;]*$/i.test(sentence);

export const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)]|\(\d+\))\s/;

// Under 8 characters says nothing, but a CJK character is a word: "周二才能部署" (deploys only on Tuesdays) is a statement.
export const tooShort = (statement: string) => statement.length + (statement.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g)?.length ?? 0) < 8;

// Long messages are mostly work material (specs, plans): only an explicit request to keep something counts
// there, and only its own sentence. Pastes (code, logs) and very long messages are never read.
export const SHORT_MESSAGE = 600;
export const MAX_MESSAGE = 2000;
export const looksPasted = (text: string) => text.includes('```') || text.split('\n').length > 15;
// Two or more shell command lines: a pasted procedure or log (a task form's "git add …" steps), at any length.
const SHELL_LINE = /^\s*(?:\$\s+)?(?:git|npm|npx|pnpm|yarn|cd|ls|mkdir|rm|cp|mv|docker|kubectl|curl|wget|pip3?|python3?|node|make|cargo|go)\s+\S/gm;
export const holdsCommands = (text: string) => (text.match(SHELL_LINE)?.length ?? 0) >= 2;
// "did you read this? https://… <the page's text>": what follows a link asked about is the page, not the user.
const QUESTION_WITH_LINK = /^[^\n]*\?\s*https?:\/\/\S+[^\n]*\n|^[^\n]*https?:\/\/\S+[^\n]*\?\s*\n/;
export const withoutPageAfterLink = (text: string) => (QUESTION_WITH_LINK.test(text) ? text.slice(0, text.indexOf('\n')) : text);

// People type fast: "im", "dont", "lets", curly apostrophes. The rules are written for the spelled-out forms.
const CONTRACTIONS: [RegExp, string][] = [
  [/[’‘]/g, "'"],
  // Not German "im" ("im Projekt SHOP"): only before words that follow "I'm".
  [/\bim\b(?=\s+(?:a|an|the|not|on|in|at|from|using|working|trying|getting|going|so|also|just|still|really|sure|done|new|fine|ok|okay|currently|tired|sick|happy|\w+ing)\b)/gi, "I'm"],
  [/\bive\b/gi, "I've"],
  [/\b(don|doesn|didn|won|can|isn|aren|shouldn|wouldn)t\b/gi, "$1't"],
  [/\blets\b/gi, "let's"],
  [/\b(that|what|there)s\b/gi, "$1's"],
  [/\b(you|they)re\b/gi, "$1're"],
  [/\b(?:alwasy|allways|alwyas|alwys|alawys|alway)\b/gi, 'always'],
  [/\b(?:nevr|nver|neve)\b/gi, 'never'],
  [/\b(?:remeber|rember|remmeber|rememeber|remebmer)\b/gi, 'remember'],
  [/\bi\b/g, 'I'],
];
export const normalized = (text: string) => CONTRACTIONS.reduce((out, [re, to]) => out.replace(re, to), text);
