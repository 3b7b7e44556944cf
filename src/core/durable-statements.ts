/**
 * What makes a user statement durable, judged sentence by sentence and clause by clause. The rules
 * come in families, one module each under durable-statements/: an explicit request to keep
 * something, a standing rule (a scope that outlives the task, a prescriptive always/never, a
 * preference, a convention…), a confirmation of a way of working, who the user is (identity), where
 * information lives (reference), a lasting project fact. Against them: a pointer to the work on
 * screen (task scope) and what the code or a rule file already holds (kept elsewhere). This module
 * orders the families, picks the statement and its type. Precision first: when in doubt, not
 * durable. Pure.
 */
import { withoutControlCharacters } from './plain-text.js';
import type { MemoryType } from './taxonomy.js';
import { CONFIRMATION, FUTURE_CONFIRMATION } from './durable-statements/confirmation.js';
import { BACK_REFERENCE, MAKE_A_DOCUMENT, MEMORY_REQUEST, RECALLING, RULE_REQUEST, unwrap, WORK_POINTER } from './durable-statements/explicit-request.js';
import { IDENTITY } from './durable-statements/identity.js';
import { CITED_RULE, CODE_LOCATION } from './durable-statements/kept-elsewhere.js';
import {
  ASKING,
  clauses,
  holdsCommands,
  isQuestion,
  LIST_ITEM,
  looksPasted,
  MAX_MESSAGE,
  normalized,
  OPENERS,
  PLAN_STEP,
  sentences,
  SHORT_MESSAGE,
  tooShort,
  withoutPageAfterLink,
} from './durable-statements/message.js';
import { PROJECT } from './durable-statements/project.js';
import { REFERENCE } from './durable-statements/reference.js';
import { HABIT, KEPT_BY_USER, PREFERENCE, REASONED_PROHIBITION, standing, standingInstruction, STRONG_RULE } from './durable-statements/standing-rule.js';
import { PASTED_OUTPUT, taskScoped } from './durable-statements/task-scope.js';
import { whyOf } from './durable-statements/why.js';

export interface DurableStatement {
  type: MemoryType;
  /** The statement itself, without the "please remember:" wrapper. */
  statement: string;
  /** The reason the user gave, when there is one. */
  why: string | null;
  /** Which family of rules found it: an explicit request, or what was inferred (a standing rule, a confirmation…). */
  kind: StatementKind;
}

export type StatementKind = 'explicit' | 'standing' | 'confirmation' | 'identity' | 'reference' | 'project';

/** The user asked for it to be kept ("remember…"), or the rules inferred it (a standing rule, who the user is…). */
export function basisOf(found: Pick<DurableStatement, 'kind'>): 'request' | 'inferred' {
  return found.kind === 'explicit' ? 'request' : 'inferred';
}

// "…, so don't store test fixtures there": what to do because of the fact, said in the next clause.
const CONSEQUENCE = /^so\s+(?:don't|do not|never|always|avoid|only|use|keep|make sure|please|we\s+(?:must|should|can't|cannot|never|always))\b/i;

/**
 * A fact with the instruction the user drew from it ("The staging database is wiped every Sunday night,
 * so don't store test fixtures there"): the instruction stays with it. Its "there" or "it" is the fact's
 * subject, not the work at hand, so only its other pointers make it task-scoped.
 */
function withConsequence(clause: string, next: string | undefined): string {
  if (!next || !CONSEQUENCE.test(next) || taskScoped(next.replace(/\b(?:there|it|them)\b/gi, ''))) return clause;
  return `${clause}, ${next}`;
}

/**
 * The clause of a task-scoped sentence that holds on its own, if any: a strong rule, who the user is
 * ("i'm not very familiar with oauth, so … now i need …"), or work the user keeps ("…, implement and
 * UI test leave it to me").
 */
function ruleClause(sentence: string): string | null {
  const parts = clauses(sentence);
  for (const [i, clause] of parts.entries()) {
    if (!STRONG_RULE.test(clause)) {
      // A project fact or a place stands alone too, but not inside pasted output ("Error: the command is deprecated").
      const fact = !PASTED_OUTPUT.test(sentence) && (PROJECT.some((re) => re.test(clause)) || REFERENCE.some((re) => re.test(clause)));
      const standsAlone = IDENTITY.some((re) => re.test(clause)) || KEPT_BY_USER.test(clause) || fact;
      if (standsAlone && !taskScoped(clause)) return withConsequence(clause, parts[i + 1]);
      continue;
    }
    // "From now on, use tabs": the marker may stand alone before its rule.
    const rule = clause.replace(STRONG_RULE, '').trim() ? clause : `${clause}, ${parts[i + 1] ?? ''}`;
    if (kindOf(rule) === 'standing' && !taskScoped(rule)) return rule;
  }
  return null;
}

function kindOf(sentence: string): StatementKind | null {
  if (IDENTITY.some((re) => re.test(sentence))) return 'identity';
  if (CONFIRMATION.test(sentence) || FUTURE_CONFIRMATION.test(sentence)) return 'confirmation';
  if (PROJECT.some((re) => re.test(sentence))) return 'project';
  if (standing(sentence)) return 'standing';
  if (REFERENCE.some((re) => re.test(sentence)) && !/\b(?:I|you)\b/.test(sentence.replace(/^(?:please\s+)?ask\b/i, ''))) return 'reference';
  return null;
}

const FIRST_PERSON_FACT = /^(?:that\s+)?(?:I(?:'m| am| can| can't| cannot| only| usually| work| live| mostly)\b|我是|ich bin\b)/i;
const RULE_WORDS =
  /\b(?:never|always|don't|do not|prefer|avoid|stop|use|want)\b|不喜欢|不要|别|喜欢|以后都|\bimmer\b|\bnie\b|präferiere|\bwir\b[^.]*\bimmer\b|предпочитаю|prefiero|prefiro|préfère|\bsempre\b|\bsiempre\b|toujours/i;

// Told to the agent about its own work, anywhere in the statement: "when you explain something, give me…",
// "…, never suggest class components", "update it on every prompt".
const ADDRESSED =
  /\b(?:when(?:ever)? you|give me|tell me|show me|ask me|you should|you must|you need to)\b|\bnever (?:suggest|use|add|write|create|run|commit|push)\b|\b(?:on|in|for|with|after) (?:every|each) (?:prompt|response|reply|answer|message|commit|change)\b/i;

function typeOf(text: string, kind: StatementKind): MemoryType {
  if (kind === 'identity') return 'user';
  if (kind === 'reference' || kind === 'project') return kind;
  if (kind === 'confirmation' || kind === 'standing') return 'feedback';
  // Explicit requests: who the user is, how to work, or a fact about the project (judged by the first clause).
  const first = text.split(/[,;，；]/)[0]!;
  if (IDENTITY.some((re) => re.test(text)) || (FIRST_PERSON_FACT.test(text) && !PREFERENCE.some((re) => re.test(first)))) return 'user';
  // An instruction ("please record all the prompts in…", "I'd like you to…") is a way of working.
  if (RULE_WORDS.test(first) || /^(?:\w+,?\s+)?(?:please\s+[a-z]|I(?:'d| would) like you to\b|I want you to\b)/i.test(text) || ADDRESSED.test(text)) return 'feedback';
  if (REFERENCE.some((re) => re.test(text))) return 'reference';
  return 'project';
}

export interface FindOptions {
  /**
   * Only what the user asked for: explicit requests to keep something ("remember…", "note for the
   * future…") and standing instructions addressed to the agent ("from now on…", "never…"). Nothing
   * inferred: no preference, convention, confirmation, identity, place or project fact.
   */
  explicitOnly?: boolean;
}

/** Why a sentence that looked like a memory was passed over, in the groups `extract --dry-run` reports. */
export type PassedDecision = 'task-scoped' | 'kept-elsewhere' | 'not-asked' | 'not-durable';

/**
 * A sentence the detector looked at as a possible memory and passed over: it bore the mark of a family
 * (an explicit request, a standing rule, a confirmation, who the user is, a reference, a project fact),
 * and a rule against it held.
 */
export interface PassedStatement {
  statement: string;
  kind: StatementKind;
  decision: PassedDecision;
  reason: string;
}

/** What the detector made of one message: its durable statement, if any, and the candidates it passed over on the way. */
export interface MessageVerdict {
  found: DurableStatement | null;
  passed: PassedStatement[];
}

type Pass = (sentence: string, decision: PassedDecision, reason: string, kind?: StatementKind) => void;

const explicitRequest = (sentence: string) => (RULE_REQUEST.test(sentence) || MEMORY_REQUEST.some((re) => re.test(sentence))) && !MAKE_A_DOCUMENT.test(sentence);

/** The family a sentence looks like it belongs to, before any rule against it: what makes it a candidate. */
function markOf(sentence: string): StatementKind | null {
  if (explicitRequest(sentence)) return 'explicit';
  const core = sentence.replace(OPENERS, '');
  return kindOf(sentence) ?? (core !== sentence ? kindOf(core) : null);
}

/** How many sentences of a message that is not read are looked through for an explicit request to report. */
const UNREAD_SENTENCES = 100;

/** The durable statement in one user message, or null (most messages: task instructions, questions, approvals). */
export function findDurableStatement(text: string, options: FindOptions = {}): DurableStatement | null {
  return judge(text, options);
}

/** The durable statement in one user message, and every candidate sentence passed over before it, with why. Slower: for reports. */
export function judgeMessage(text: string, options: FindOptions = {}): MessageVerdict {
  const passed: PassedStatement[] = [];
  const found = judge(text, options, (sentence, decision, reason, known) => {
    const kind = known ?? markOf(sentence);
    if (kind) passed.push({ statement: sentence, kind, decision, reason });
  });
  return { found, passed };
}

/** A message memdir does not read (a paste, commands, too long): reported only when it holds an explicit request. */
function passUnread(trimmed: string, reason: string, pass: Pass | undefined): null {
  if (!pass) return null;
  const request = sentences(trimmed).slice(0, UNREAD_SENTENCES).find(explicitRequest);
  if (request) pass(request, 'not-durable', reason, 'explicit');
  return null;
}

function judge(text: string, options: FindOptions, pass?: Pass): DurableStatement | null {
  // Pasted terminal output brings escape sequences and stray control characters: text, not a reason to fail.
  const trimmed = withoutPageAfterLink(normalized(withoutControlCharacters(text).trim()));
  if (trimmed.length === 0) return null;
  if (trimmed.length > MAX_MESSAGE) return passUnread(trimmed, `in a message over ${MAX_MESSAGE} characters, which is not read (a paste or a spec)`, pass);
  const long = trimmed.length > SHORT_MESSAGE;
  if (long && looksPasted(trimmed)) return passUnread(trimmed, 'in pasted code or a long paste, which is not read', pass);
  if (holdsCommands(trimmed)) return passUnread(trimmed, 'among shell commands (a pasted procedure or log), which are not read', pass);
  const parts = sentences(trimmed);
  // A bulleted list of instructions is the brief of a task ("- Manage the notes… - Always allow…").
  const brief = trimmed.split('\n').filter((line) => LIST_ITEM.test(line)).length >= 3;
  for (const [i, sentence] of parts.entries()) {
    if (RECALLING.test(sentence)) {
      pass?.(sentence, 'not-durable', 'recalls what was said ("remember when…"), not a request to keep');
      continue;
    }
    if (PLAN_STEP.test(sentence)) {
      pass?.(sentence, 'not-durable', 'a step of a plan');
      continue;
    }
    const ruleRequest = RULE_REQUEST.test(sentence);
    const explicit = (ruleRequest || MEMORY_REQUEST.some((re) => re.test(sentence))) && !MAKE_A_DOCUMENT.test(sentence);
    // Who the user is may come up anywhere, long briefs included ("since I'm a solopreneur, …").
    const identity = !options.explicitOnly && IDENTITY.some((re) => re.test(sentence));
    // Options listed after a question ("Which approach is better? 1. … 2. …") are choices, not rules.
    const option = LIST_ITEM.test(sentence) && parts.slice(0, i).some(isQuestion);
    // Asked for without "remember": an instruction to the agent that holds from now on, or always/never.
    const instruction = options.explicitOnly === true && !explicit && standingInstruction(sentence);
    if (((options.explicitOnly && !instruction) || (long && !identity) || (brief && LIST_ITEM.test(sentence)) || option) && !explicit) {
      if (pass) {
        if (options.explicitOnly && !instruction) pass(sentence, 'not-asked', 'inferred, not asked for: this run keeps explicit requests and standing instructions only');
        else if (option) pass(sentence, 'not-durable', 'an option listed after a question');
        else if (brief && LIST_ITEM.test(sentence)) pass(sentence, 'not-durable', "an item of a task's brief (a bulleted list of instructions)");
        else pass(sentence, 'not-durable', `in a long message (over ${SHORT_MESSAGE} characters), where only an explicit request counts`);
      }
      continue;
    }
    // An explicit request keeps the rest of a short message with it ("remember: X. Y.").
    // A list after the request stays a list ("Remember these conventions:" then "- use pnpm").
    // "…make a rule to make sure you never do this again" keeps what "this" is: the sentences before it.
    const pointsBack = ruleRequest && BACK_REFERENCE.test(sentence);
    if (pointsBack && i === 0 && !/:\s*\S/.test(sentence)) {
      // "update the rule to always do this going forward": no rule in it
      pass?.(sentence, 'not-durable', 'asks for a rule without saying it ("do this")', 'explicit');
      continue;
    }
    const joined = (from: number, to: number) => parts.slice(from, to).reduce((text, part) => `${text}${LIST_ITEM.test(part) ? '\n' : ' '}${part}`);
    // In a long message, the sentence before is what "this" is.
    const span = !explicit ? sentence : long ? joined(pointsBack ? Math.max(0, i - 1) : i, i + 1) : joined(pointsBack ? 0 : i, parts.length);
    if (isQuestion(explicit ? span : sentence)) {
      pass?.(sentence, 'not-durable', 'a question', explicit ? 'explicit' : undefined);
      continue;
    }
    if (!explicit && ASKING.test(sentence) && !REASONED_PROHIBITION.test(sentence) && !HABIT.test(sentence)) {
      pass?.(sentence, 'not-durable', 'asks for something to be done, not a rule');
      continue;
    }
    const core = sentence.replace(OPENERS, '');
    if (!explicit && MAKE_A_DOCUMENT.test(core)) {
      pass?.(sentence, 'not-durable', 'a document or work item to make, not a memory');
      continue;
    }
    const kind: StatementKind | null = explicit ? 'explicit' : (kindOf(sentence) ?? (core !== sentence ? kindOf(core) : null));
    if (kind === null) continue;
    if (options.explicitOnly && kind !== 'explicit' && kind !== 'standing') {
      pass?.(sentence, 'not-asked', 'inferred, not asked for: this run keeps explicit requests and standing instructions only');
      continue;
    }
    let statement = unwrap(span);
    if (kind !== 'explicit' && kind !== 'confirmation' && taskScoped(sentence)) {
      const rule = ruleClause(sentence);
      if (!rule) {
        pass?.(sentence, 'task-scoped', 'points at the work at hand ("this …", "for now", "today", pasted output)', kind);
        continue;
      }
      statement = rule;
    }
    if (tooShort(statement)) {
      pass?.(statement, 'not-durable', 'too short to say anything on its own', kind);
      continue;
    }
    if (CODE_LOCATION.test(statement)) {
      pass?.(statement, 'kept-elsewhere', 'says where code sits: the code shows it', kind);
      continue;
    }
    if (CITED_RULE.test(statement)) {
      pass?.(statement, 'kept-elsewhere', 'quotes a rule file that already holds it', kind);
      continue;
    }
    // "remember that this test code is only meant to…" reminds of the work at hand.
    if (kind === 'explicit' && WORK_POINTER.test(statement)) {
      pass?.(statement, 'task-scoped', 'asks to keep in mind the work at hand ("this test…")', kind);
      continue;
    }
    const { rule, why } = whyOf(statement);
    // A rule asked for is a way of working, whatever its first words.
    return { type: ruleRequest ? 'feedback' : typeOf(statement, kind), statement: rule, why, kind };
  }
  return null;
}
