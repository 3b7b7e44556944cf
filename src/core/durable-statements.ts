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
      if (standsAlone && !taskScoped(clause)) return clause;
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

/** The durable statement in one user message, or null (most messages: task instructions, questions, approvals). */
export function findDurableStatement(text: string, options: FindOptions = {}): DurableStatement | null {
  // Pasted terminal output brings escape sequences and stray control characters: text, not a reason to fail.
  const trimmed = withoutPageAfterLink(normalized(withoutControlCharacters(text).trim()));
  if (trimmed.length === 0 || trimmed.length > MAX_MESSAGE) return null;
  const long = trimmed.length > SHORT_MESSAGE;
  if ((long && looksPasted(trimmed)) || holdsCommands(trimmed)) return null;
  const parts = sentences(trimmed);
  // A bulleted list of instructions is the brief of a task ("- Manage the notes… - Always allow…").
  const brief = trimmed.split('\n').filter((line) => LIST_ITEM.test(line)).length >= 3;
  for (const [i, sentence] of parts.entries()) {
    if (RECALLING.test(sentence) || PLAN_STEP.test(sentence)) continue;
    const ruleRequest = RULE_REQUEST.test(sentence);
    const explicit = (ruleRequest || MEMORY_REQUEST.some((re) => re.test(sentence))) && !MAKE_A_DOCUMENT.test(sentence);
    // Who the user is may come up anywhere, long briefs included ("since I'm a solopreneur, …").
    const identity = !options.explicitOnly && IDENTITY.some((re) => re.test(sentence));
    // Options listed after a question ("Which approach is better? 1. … 2. …") are choices, not rules.
    const option = LIST_ITEM.test(sentence) && parts.slice(0, i).some(isQuestion);
    // Asked for without "remember": an instruction to the agent that holds from now on, or always/never.
    const instruction = options.explicitOnly === true && !explicit && standingInstruction(sentence);
    if (((options.explicitOnly && !instruction) || (long && !identity) || (brief && LIST_ITEM.test(sentence)) || option) && !explicit) continue;
    // An explicit request keeps the rest of a short message with it ("remember: X. Y.").
    // A list after the request stays a list ("Remember these conventions:" then "- use pnpm").
    // "…make a rule to make sure you never do this again" keeps what "this" is: the sentences before it.
    const pointsBack = ruleRequest && BACK_REFERENCE.test(sentence);
    if (pointsBack && i === 0 && !/:\s*\S/.test(sentence)) continue; // "update the rule to always do this going forward": no rule in it
    const joined = (from: number, to: number) => parts.slice(from, to).reduce((text, part) => `${text}${LIST_ITEM.test(part) ? '\n' : ' '}${part}`);
    // In a long message, the sentence before is what "this" is.
    const span = !explicit ? sentence : long ? joined(pointsBack ? Math.max(0, i - 1) : i, i + 1) : joined(pointsBack ? 0 : i, parts.length);
    if (isQuestion(explicit ? span : sentence) || (!explicit && ASKING.test(sentence) && !REASONED_PROHIBITION.test(sentence) && !HABIT.test(sentence))) continue;
    const core = sentence.replace(OPENERS, '');
    const kind: StatementKind | null = explicit ? 'explicit' : MAKE_A_DOCUMENT.test(core) ? null : (kindOf(sentence) ?? (core !== sentence ? kindOf(core) : null));
    if (kind === null || (options.explicitOnly && kind !== 'explicit' && kind !== 'standing')) continue;
    let statement = unwrap(span);
    if (kind !== 'explicit' && kind !== 'confirmation' && taskScoped(sentence)) {
      const rule = ruleClause(sentence);
      if (!rule) continue;
      statement = rule;
    }
    if (tooShort(statement) || CODE_LOCATION.test(statement) || CITED_RULE.test(statement)) continue;
    // "remember that this test code is only meant to…" reminds of the work at hand.
    if (kind === 'explicit' && WORK_POINTER.test(statement)) continue;
    const { rule, why } = whyOf(statement);
    // A rule asked for is a way of working, whatever its first words.
    return { type: ruleRequest ? 'feedback' : typeOf(statement, kind), statement: rule, why, kind };
  }
  return null;
}
