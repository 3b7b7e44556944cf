/**
 * The local extraction engine: finds the rare durable statements among what a user typed
 * (explicit "remember…" requests, standing rules, confirmed ways of working, who the user
 * is) and turns each into a memory. Precision first: a memory nobody asked for is loaded
 * into every later session, so anything that may be task-scoped is left alone. Pure.
 */
import { findRelativeDates } from '../core/dates.js';
import type { MemoryType } from '../core/taxonomy.js';

export interface DurableStatement {
  type: MemoryType;
  /** The statement itself, without the "please remember:" wrapper. */
  statement: string;
  /** The reason the user gave, when there is one. */
  why: string | null;
}

// An explicit request to keep something: "remember: …", "please remember that …", "note for the future", "记住", "merk dir".
const EXPLICIT = [
  /(?:^|[.!;,]\s*|\b(?:please|pls|and|but|ok|okay|also|so|always|just)\s+)(?:remember|don't forget|do not forget|keep in mind|bear in mind)\s*(?:[:,—-]|that\b|this\b|to\b)/i,
  /\b(?:note|noted|keep in mind|fyi|heads[- ]up|reminder)\s+for\s+(?:the\s+)?future(?:\s+sessions?)?\b|\bfor future reference\b/i,
  /\b(?:for|in)\s+(?:all\s+)?(?:future|later|next)\s+sessions?\b/i,
  /\b(?:save|store|add|put|keep)\s+(?:this|that|it)\s+(?:to|in|as)\s+(?:your\s+|a\s+)?memor(?:y|ies)\b|\bmemori[sz]e\s+(?:this|that)\b|\bmake a (?:mental )?note\b/i,
  /记住|记下来|记一下|记得以后|请记得/,
  /\bmerke?\s+dir\b|\bvergiss (?:das )?nicht\b/i,
  /\b(?:abgespeichert|abspeichern|speichere?)\b[^.?!]*\bkünftig|\bkünftig\b[^.?!]*\b(?:abgespeichert|abspeichern)/i,
  /覚えて(?:おいて|ください)|\bretiens\b|\bsouviens-toi\b|\brecuerda\s+(?:que|:)/i,
];

// A rule meant to last: "never …", "always …", "from now on", "以后都…", "不要再…".
const STANDING = [
  /\b(?:from now on|going forward|moving forward|in (?:the )?future|for all future|every time you|whenever you|each time you|by default|as a rule|no more|any ?more\b|never again)\b/i,
  /(?:^|[.!;:,—-]\s*|\b(?:please|and|but|so|we|you|I|should|must|to)\s+)(?:never|always)\s+(?!mind\b)[a-z]/i,
  /\b(?:don't|do not|never)\s+ever\b|\bstop\s+(?:adding|using|writing|putting|creating|asking|doing)\b/i,
  /\bI (?:always |really |strongly )?(?:prefer|want you to always|hate it when you|don't like it when you|like it when you)\b/i,
  /\b(?:at|in) the (?:start|beginning|end) of (?:each|every|a|any) (?:session|conversation|response|reply|task)\b/i,
  /\b(?:whenever|when|if) I (?:say|ask|write|speak|type|mention)\b/i,
  /\b(?:our|the) (?:convention|rule|policy|standard) (?:here |in this (?:repo|project|codebase) )?is\b|\bin this (?:repo|project|codebase),? we\b/i,
  /以后都|以后一律|以后不要|以后请|今后|从现在开始|不要再|别再|永远不要|每次都|总是要/,
  /\b(?:ab jetzt|ab sofort|von nun an|in zukunft|künftig|grundsätzlich|präferiere immer|niemals)\b|\b(?:du sollst|du solltest|bitte)\b[^.?!]*\b(?:immer|auf jeden fall)\b|\bbeim start (?:einer|jeder) session\b|\bwenn ich\b[^.?!]*\b(?:spreche|sage|schreibe)\b/i,
  /今後|常に|絶対に|\bà l'avenir\b|\bdésormais\b|\bde ahora en adelante\b|\bsiempre\b|\bnunca\b/i,
  /\b(?:make sure (?:to|you) (?:always|never)|(?:you should|please) (?:always|never)|I'd (?:rather|prefer) (?:you|that you|if you)|in general,? (?:please|don't|do not|use|prefer)|as a general rule)\b/i,
  /\bwe (?:always|never|don't|do not) (?:use|write|ship|merge|commit|deploy|mock|push)\b/i,
  /^(?:please\s+)?(?:don't|do not|never)\b[^.?!]*\bunless\b|^(?:and\s+)?next time,?\s+(?:please\s+)?[a-z]+|\bwe (?:use|prefer) [^.?!]+, not\b|\bask \w+ (?:before|first)\b/i,
  /\b(?:use|do|apply) (?:this|that|it|the same) (?:for|in|on) (?:all|every|each|any) \w+/i,
  /\b(?:als (?:leitlinie|regel|grundsatz|präferenz)|im gedächtnis|in deinem gedächtnis)\b/i,
  /\b(?:with|after|before|in|for) (?:every|each) (?:response|reply|answer|commit|PR|pull request|change|session|release|deploy)\b|\bin all (?:responses|replies|answers|commits|future)\b/i,
  /^(?:please\s+)?(?:don't|do not|never|avoid)\b[^.?!]*(?:\bbecause\b|\bsince\b|[—–]|\bwe got burned\b|\botherwise\b)/i,
  /以后(?!再)|我(?:不)?喜欢|我希望你(?:以后|总是|每次)|请总是|一律|务必/,
  /\bsoll(?:st|te|test)?\s+(?:immer|nie|niemals|grundsätzlich)\b|\bich (?:möchte|will)\b[^.?!]*\b(?:immer|nie|keine .* mehr|nicht mehr)\b/i,
];

// Approval of a way of working, meant to continue: "keep doing it this way", "that's how I want it from now on".
const CONFIRMATION =
  /\bkeep (?:doing|that|it)\b(?!\s+what\b)(?:\s+(?:it|that|this))?(?:\s+(?:this|that)\s+way)?|\bexactly (?:what|how) I want\b|\bthat's (?:how|what) I want\b|\bdo it like this (?:from now on|every time|again)\b|\b(?:do|doing) (?:that|this|it) again\b|\bthat(?:'s| was| is) the right (?:call|approach|way)\b|\bthis is (?:exactly )?the (?:approach|way) I want\b|\b(?:that's|this is) how I (?:like|want) it\b|\bthat's (?:exactly )?the (?:\w+ ){1,2}I (?:want|like)\b|\b(?:more|all) of (?:this|that),? please\b/i;

// Who the user is: "I'm a data scientist on…", "I am the only maintainer…", "I work on the billing team", "I'm colorblind, so…".
const IDENTITY = [
  /\bI(?:'m| am)\s+(?:a|an|the(?: only| lead| main| sole)?)\s+(?!\w+ing\b)(?!(?:bit|little|lot|few|problem|issue|question|error|moment|second|minute|mess|big fan of this)\b)\w+/i,
  /\bI work (?:as|on|in|at|for)\s+(?:a|an|the)\b|\bmy (?:role|job|background) is\b|\bI(?:'ve| have) been (?:writing|using|working with|doing) \w+(?: \w+)? for (?:\d+|a few|many|several|ten|five|two|three) years\b/i,
  /\bI(?:'m| am)\s+(?:new to|not familiar with|very familiar with|based in|in UTC|in the \w+ time ?zone|colou?rblind|dyslexic|left-handed)\b/i,
  /\bI(?:'m| am)\b[^.?!]{1,60}?,?\s+so\s+(?:please\s+)?(?:always|never|don't|do not|keep|use|explain|write|avoid|make|prefer)\b/i,
  /我是(?:一名|一个|个)|ich bin (?:ein|eine|der|die)\s+\w+/i,
  /\bI(?:'m| am) (?:responsible for|in charge of|the owner of|on the \w+ team)\b|\bI (?:lead|manage|run|own) the\b|\bmy team (?:is|owns|works on)\b|\bas (?:a|an|the) \w+(?: \w+)?,? I\b/i,
  /\bI (?:mostly|usually|mainly|primarily) (?:work|write|code|program|use)\b/i,
  /\bmy (?:timezone|time zone|native language|first language) is\b|\bI(?:'m| am) on (?:Windows|macOS|a Mac|Linux)\b|\bI live in\b/i,
];

// Where information lives outside the code: "the runbook lives in Confluence under …".
const REFERENCE_PLACE =
  /\b(?:url|link|dashboard|board|docs?|wiki|runbook|channel|spreadsheet|tracker)\b[^.?!]{0,30}\bis\s+(?:at\s+)?(?:https?:\/\/|#[\w-])|\b(?:dashboard|runbook|wiki|board|channel|tracker|spreadsheet|docs)\b[^.?!]{0,40}\b(?:is|are|lives|live)\s+(?:at|in|on|under)\b|\b(?:go|goes|are posted|is posted|get posted)\s+(?:to|in)\s+#[\w-]+/i;
const REFERENCE =
  /\b(?:lives|live|is kept|are kept|is tracked|are tracked|is documented|are documented|can be found|is|are)\s+(?:in|on|at|under)\s+(?:the\s+)?(?:#[\w-]+|https?:\/\/\S+|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|io|dev|net|org|app)\b|(?:Confluence|Notion|Jira|Linear|Slack|Grafana|Datadog|Sentry|PagerDuty|Google (?:Drive|Docs|Sheets)|Figma|Asana|Trello|Airtable|Kibana|Splunk|1Password|Vault|the wiki|our wiki)\b)/i;

// A decision or fact about the project meant to last.
const PROJECT =
  /\b(?:is|are) deprecated\b|\bwill be (?:removed|deprecated|shut down|sunset)\b|\bthe (?:client|customer|legal team|compliance team|security team) (?:wants|requires|asked for|needs)\b|\bwe(?:'re| are) (?:freezing|migrating|moving|switching|deprecating|sunsetting|dropping|replacing)\b|\b(?:deadline|due date|launch|cutoff)\b[^.?!]{0,40}\b(?:is|on|by|after|until)\b|\b(?:compliance|legal|security) (?:requires|says)\b|^(?:the reason (?:we|our)\b|we(?:'ve| have)? decided\b|our (?:deadline|release|launch|rate limit|sla|budget)\b)|\bis owned by\b|\b(?:are|is) going away\b|\b(?:merge|code) freeze\b/i;

// Scope that ties a statement to the task at hand.
const TASK_SCOPE = [
  /\b(?:this|that|the)\s+(?:one\s+)?(?:PR|pull request|commit|branch|ticket|task|test run|run|script|file|function|line|time)\b/i,
  /\bin this one\b|\bfor now\b|\bfor this(?:\s+(?:one|time|task|run|change|fix|step|test|script))?\s*[.,!]?\s*$|\bfor this (?:one|time|task|run|change|fix|step)\b|\bright now\b|\bthere\b(?!\s+(?:is|are)\b)|\bhere\b\s*(?:[.,!]|$)(?!.*\b(?:project|repo)\b)/i,
  /\bnever mind\b|\bnevermind\b/i,
  /先别|先把|这次|这个(?:文件|函数|PR)|先回滚|再说/,
];

// Remembering as recall, not as a request to keep: "remember when…", "can you remember what…".
const RECALLING = /\bremember\s+(?:when|what|how|where|why|which|the\s+\w+\s+(?:we|you|I)\b|if\b)|\b(?:can|do|did|could) you remember\b|\bdon't remember\b/i;

// A request or question addressed to the assistant about the work at hand.
const ASKING = /^(?:can|could|would|will|do|does|did|is|are|how|what|why|where|which|who|kannst|könntest|wie|was|wo|warum)\b/i;

const WHY_MARKERS = /\s*(?:[—–]|\s-\s|;|,)?\s*\b(because|since|as|so that|otherwise|we got burned|the reason is|weil|da)\b\s*/i;

/** The sentences of a message (CJK full stops too). */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？])\s+|(?<=[。！？])|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const isQuestion = (sentence: string) => /[?？]\s*$/.test(sentence) || /吗[。]?$/.test(sentence);

/** Drop a leading "please remember:" / "Note for the future:" wrapper, keep the statement. */
function unwrap(text: string): string {
  return text
    .replace(
      /^(?:(?:ok|okay|yes|yeah|great|also|and|so|fyi|heads[- ]up|please|pls)[,!.\s]+)*(?:please\s+)?(?:remember|note|keep in mind)(?:\s+for\s+(?:the\s+)?future(?:\s+sessions)?)?\s*(?:[:,—-]|that\b)?\s*/i,
      '',
    )
    .replace(/^(?:heads[- ]up|fyi)\s+for\s+(?:the\s+)?future(?:\s+sessions)?\s*[:,—-]?\s*/i, '')
    .replace(/^(?:记住|记下来|记一下)[，,：:\s]*/, '')
    .replace(/^merke?\s+dir(?:\s+bitte)?[:,\s]*/i, '')
    .trim();
}

type Kind = 'explicit' | 'standing' | 'confirmation' | 'identity' | 'reference' | 'project';

function typeOf(text: string, kind: Kind): MemoryType {
  if (kind === 'identity') return 'user';
  if (kind === 'reference' || kind === 'project') return kind;
  if (kind === 'confirmation' || kind === 'standing') return 'feedback';
  // Explicit requests: who the user is, how to work, or a fact about the project (judged by the first clause).
  const first = text.split(/[,;，；]/)[0]!;
  if (IDENTITY.some((re) => re.test(text)) || /^(?:that\s+)?I(?:'m| am)\b|^我是/i.test(text)) return 'user';
  if (/\b(?:never|always|don't|do not|prefer|avoid|stop|use)\b|不喜欢|不要|别|喜欢|以后都|\bimmer\b|\bnie\b|präferiere|\bwir\b[^.]*\bimmer\b/i.test(first)) return 'feedback';
  if (REFERENCE.test(text)) return 'reference';
  return 'project';
}

function kindOf(sentence: string): Kind | null {
  if (IDENTITY.some((re) => re.test(sentence))) return 'identity';
  if (CONFIRMATION.test(sentence)) return 'confirmation';
  if (PROJECT.test(sentence)) return 'project';
  if (STANDING.some((re) => re.test(sentence))) return 'standing';
  if ((REFERENCE.test(sentence) || REFERENCE_PLACE.test(sentence)) && !/\b(?:I|you)\b/.test(sentence)) return 'reference';
  return null;
}

function whyOf(statement: string): { rule: string; why: string | null } {
  const match = WHY_MARKERS.exec(statement);
  if (!match || match.index < 12) return { rule: statement, why: null };
  const rule = statement.slice(0, match.index).replace(/[\s,;—–-]+$/, '');
  const why = statement.slice(match.index + match[0].length).trim();
  const lead = match[1]!.toLowerCase();
  // "because of the audit" reads as a reason; "the reason is X" as X.
  return { rule, why: why ? (lead === 'the reason is' ? why : `${lead} ${why}`) : null };
}

/** The durable statement in one user message, or null (most messages: task instructions, questions, approvals). */
export function findDurableStatement(text: string): DurableStatement | null {
  const trimmed = text.trim();
  // Long pastes (logs, specs, plans) are work material, not statements to keep.
  if (trimmed.length === 0 || trimmed.length > 600) return null;
  const parts = sentences(trimmed);
  for (const [i, sentence] of parts.entries()) {
    if (RECALLING.test(sentence)) continue;
    const explicit = EXPLICIT.some((re) => re.test(sentence));
    // An explicit request keeps the rest of the message with it ("remember: X. Y.").
    const span = explicit ? parts.slice(i).join(' ') : sentence;
    if (isQuestion(explicit ? span : sentence) || (!explicit && ASKING.test(sentence))) continue;
    const kind: Kind | null = explicit ? 'explicit' : kindOf(sentence);
    if (kind === null) continue;
    if (kind !== 'explicit' && kind !== 'confirmation' && TASK_SCOPE.some((re) => re.test(sentence))) continue;
    const statement = unwrap(span);
    if (statement.length < 8) continue;
    const { rule, why } = whyOf(statement);
    return { type: typeOf(statement, kind), statement: rule, why };
  }
  return null;
}

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

const HOW_TO_APPLY: Record<MemoryType, string> = {
  user: 'keep this in mind when explaining and deciding how to present work to this user.',
  feedback: 'follow this in every session of this project unless the user says otherwise.',
  project: 'take this into account when planning or changing related work in this project.',
  reference: 'look there first when this information is needed.',
};

const DESCRIPTION_LEAD: Record<MemoryType, string> = {
  user: 'About the user',
  feedback: 'User rule',
  project: 'Project fact',
  reference: 'Where to look',
};

/** A memory for a durable statement, its relative dates made absolute against `anchor` (the message's time). */
export function proposeMemory(found: DurableStatement, anchor: Date): ProposedMemory {
  const statement = capitalize(absoluteDates(found.statement, anchor).replace(/[\s.。]+$/, ''));
  const why = found.why ? absoluteDates(found.why, anchor).replace(/[\s.。]+$/, '') : null;
  const name = shorten(statement.split(/[,;:，；：—–]/)[0]!.trim() || statement, MAX_NAME);
  const described = shorten(statement, MAX_DESCRIPTION);
  // The description must say more than the name: lint calls one equal to the name vague.
  const description = described === name ? shorten(`${DESCRIPTION_LEAD[found.type]}: ${statement}`, MAX_DESCRIPTION) : described;
  const lines = [`${statement}.`];
  if (found.type === 'feedback' || found.type === 'project') {
    lines.push('', `**Why:** ${why ?? `the user asked for this to be kept (stated on ${anchor.toISOString().slice(0, 10)})`}.`, `**How to apply:** ${HOW_TO_APPLY[found.type]}`);
  } else if (why) {
    lines.push('', `**Why:** ${why}.`);
  }
  return { type: found.type, name, description, body: lines.join('\n') };
}
