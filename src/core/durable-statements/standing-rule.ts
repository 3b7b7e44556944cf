/**
 * Family "standing rule": how to work from now on. A scope that outlives the task ("from now on",
 * "whenever you…", "in this project", "以后"), a prescriptive always/never, a negated imperative with
 * a generic object, a general preference, a stated convention, a qualified prohibition, the language
 * of every reply, work the user keeps for themselves. Pure.
 */
import { clauses, LEAD } from './message.js';

// A time scope that outlives the task ("from now on", "every time you…", "in every reply"). English ones
// must sit in a prescriptive clause (checked below). Quantifiers count over recurring events only:
// "in every reply" is a standing rule, "in all files" is usually one batch of work.
const SCOPE_EN =
  /\b(?:from now on|from here on(?: out)?|(?<!\b(?:plan|steps?|roadmap|strategy|path)\s)going forward(?! with)|moving forward(?! with)|henceforth|in (?:the )?future|for all future|(?:every|each) time (?:you|we)\b|whenever (?:you|we)\b(?!\s*(?:are|'re|have|get|can|want|like) ?(?:ready|done|time|a chance|a moment)?\b)|as a (?:general )?rule|never again|ever again|(?:unless|until) I (?:say|tell you) otherwise|not (?:just|only) (?:for )?(?:this|that) (?:one|time|PR|commit|file|task)\b|(?<!\b(?:is|are|was|were|be|been|being|having|has|have|had|with)\s)(?:no longer|no more (?:\w+ ){0,2}\w+s\b)|next time(?! (?:it|this|that|we run|you run)\b)|from today on|permanently|(?:in|for|with|after|before|at the end of|at the start of) (?:all|every|each|any) (?:new )?(?:commits?|PRs?|pull requests?|responses?|replies|answers?|summar(?:y|ies)|reports?|sessions?|conversations?|releases?|deploys?|tasks?|messages?)\b|\b(?:don't|do not|no longer|stop|never)\b[^.?!]*\bany ?more\s*[.!]?$)/i;
// "in this project" scopes a convention ("in this repo we use tabs"), but an imperative with it is a task
// ("set up eslint in this project"): it needs a subject or a modal that states a rule.
const PLACE_SCOPE =
  /\b(?:in|across|for) (?:this|our|the whole|all our) (?:project|repo|repository|codebase|code base|team|company|org)\b|\b(?:in|across|for) (?:all )?(?:my|our) (?:projects|repos|repositories|codebases)\b|\bin (?:diesem|unserem) projekt\b|\bdans (?:ce projet|nos projets|tous nos projets)\b|\ben este proyecto\b|在这个项目(?:里|中)/i;
const RULE_SUBJECT = /\b(?:we|our|you should|you must|should|must|always|never|don't|do not|ever|wir|immer|nie|niemals|soll\w*|muss\w*|kein\w*|nous|on)\b|都|不要/i;
const SCOPE_OTHER = [
  /\b(?:ab jetzt|ab sofort)(?!\s+(?:wird|ist|geht|kommt|sind|haben)\b)|\b(?:von nun an|in zukunft|zukünftig|künftig|grundsätzlich|jedes mal|immer wenn|für die zukunft(?! (?:dieses|des|der|von)\b)|standardmäßig|generell|nie wieder|niemals|dauerhaft|bei jeder (?:session|antwort|aufgabe)|in jeder (?:session|antwort))\b/i,
  /\b(?:désormais|dorénavant|à l'avenir|à partir de maintenant|à chaque fois que|de ahora en adelante|a partir de ahora|en el futuro|cada vez que|a partir de agora|de agora em diante|no futuro|toda vez que)\b/i,
  // Bare always/never in Romance languages and Russian also describe bugs ("siempre falla", "toujours pas",
  // "всегда падает"): they count with please, a modal, an imperative with a pronoun ("réponds-moi toujours"),
  // a sentence-initial infinitive ("toujours utiliser…") or a Russian imperative ("всегда пиши").
  /\b(?:por favor|porfa|s'il te pla[iî]t|stp|svp|debes|deberías|tienes que|hay que|você deve|tem que|tu dois|il faut|vous devez)\b[^.?!]*\b(?:toujours|jamais|siempre|nunca|sempre)\b|\b(?:toujours|jamais|siempre|nunca|sempre)\b[^.?!]*\b(?:por favor|porfa|s'il te pla[iî]t|stp|svp)\b|\b\w+-(?:moi|nous|le|la|les)\s+(?:toujours|jamais)\b|^(?:toujours|jamais|siempre|nunca|sempre)\s+\w+(?:er|ir|re|ar)\b/i,
  /(?:^|\s)(?:всегда|никогда(?: не)?)\s+\S+(?:и|й|йте|ите)(?=[\s,.!]|$)|(?:^|\s)пожалуйста[^.?!]*(?:всегда|никогда)/i,
  // "Stop doing X" in French, Spanish, Portuguese, Italian and German, as English "stop adding…" (not "stop it").
  /(?<![\p{L}])(?:arr[êe]te|arr[êe]tez) de (?:me |nous )?(?!(?:le|la|les)\b)\p{L}+(?:er|ir|re)\b(?!\s+(?:ça|cela)(?![\p{L}]))|(?<![\p{L}])(?:deja|dejá|dejen|para|pare|parem) de \p{L}+(?:ar|er|ir)\b(?!\s+(?:isso|eso|esto|aquilo|aquello)\b)|(?<![\p{L}])smetti(?:la)? di \p{L}+(?:are|ere|ire)\b|\bhör(?:e|t)? (?:bitte )?auf,? (?:\w+ ){0,3}zu \p{L}+en\b/iu,
  /(?:^|\s)(?:впредь|с этого момента|отныне|каждый раз)(?=[\s,.!]|$)/i,
  // "From now on" in Italian, Dutch, Polish, Turkish, Korean, Vietnamese and Thai.
  /\b(?:d'ora in (?:poi|avanti)|da (?:ora|adesso) in poi|vanaf nu|voortaan|od teraz|od tej pory|bundan böyle)\b|이제부터|앞으로는|(?:^|[\s,.])(?:từ giờ trở đi|từ nay về sau|từ bây giờ)(?=[\s,.!]|$)|จากนี้ไป|ต่อจากนี้ไป|นับจากนี้/i,
  // 以后 is "from now on" only where a clause starts ("以后都用 pnpm"); after a word it is "after" ("提交以后").
  /(?:^|[，,。；;：:！!\s]|你|我们|咱们|大家|请)以后(?!再)|今后|从现在开始|不要再|别再|再也不要|永远不要|从今以后|每次[^，。？?]*(?:都要|都用|要|请|必须)|总是要|请总是|一律|始终|务必|今後|これから(?:は)?|(?:毎回|常に|必ず|絶対に)[^。？?]*(?:ください|すること|ように|しない|しろ)/,
];

// always/never telling how to work (not "it never returns", "you always do this!", "I never said").
// Followed by a participle or a state it describes how something behaves ("the panel is open and always
// shown"), not what to do.
// Nor what the product shows or returns ("always return 404 when the user is missing", "never show the
// password"), unless it is shown to the user ("always show me the diff").
const NOT_AN_IMPERATIVE = String.raw`(?!(?:the|a|an|same|mind|again|been|had|did|was|were|said|thought|knew|got|shown|hidden|visible|true|false|on|off|available|present|there|given|taken|written|will|would|is|are|has)\b|\w*[^e\s]ed\b|(?:return|show|display|render|redirect|hide)s?\b(?!\s+(?:me|us)\b))`;
const ALWAYS_NEVER = [
  new RegExp(String.raw`(?:^|[.!;:,—–-]\s*)${LEAD}(?:always|never)(?:\s+ever)?\s+${NOT_AN_IMPERATIVE}[a-z]`, 'i'),
  /\b(?:you|we)\s+(?:should|must|need to|have to|are to|ought to|'ll|will)\s+(?:always|never)\b|\b(?:you|me|us|yourself|try|remember|sure|important|rule is) to (?:always|never)\s+[a-z]|\b(?:I|we|you)(?:'d| would| really| do)? (?:want|need|like|prefer|expect) to (?:always|never)\s+[a-z]|\bI (?:want|need|'d like|would like) you to (?:always|never)\b|\bmake sure (?:to|you) (?:always|never)\b/i,
  // A conditional rule: "when you lose the connection, always re-check the state".
  new RegExp(String.raw`\b(?:when|whenever|if|every time|each time|before|after) (?:you|we)\b[^.?!]*\b(?:always|never)\s+${NOT_AN_IMPERATIVE}[a-z]`, 'i'),
  /\bwe (?:always|never) (?!(?:had|did|was|were|said|got|made|went|knew|thought|used to)\b)(?!\w+ed\b)[a-z]+/i,
  /\b(?:don't|do not|never)\s+ever\b|\b(?:no|never|don't)\b[^.?!;]*\bever\s*(?:[.!,;]|$)/i,
  new RegExp(String.raw`(?:^|[.!;:,]\s*)${LEAD}stop\s+\w+ing\b(?!\s+(?:the|this|that|it|my|now)\b)`, 'i'),
  /\b(?:du sollst|du solltest|du musst|bitte)\b[^.?!]*\b(?:immer|nie|niemals|auf jeden fall)\b(?!\s+noch)|\bsoll(?:st|te|test)?\s+(?:immer|nie|niemals|grundsätzlich)\b|\bich (?:möchte|will)\b[^.?!]*\b(?:immer|nie|keine .* mehr|nicht mehr)\b/i,
];

// A negated imperative with a generic object: "don't add comments that repeat the code".
const NEGATED_GENERIC =
  /^(?:please\s+)?(?:don't|do not|never|avoid|stop)\s+(?!(?:worry|bother|panic|stress|rush|hesitate|mind)\w*\b)\w+\s+(?:(?!(?:any|more|the|this|that|these|those|my|your|our|all|some)\b)\w+\s+)?(?!things\b)[a-z]+s\b(?!\s+(?:yet|now|here|there)\b)[^,;]*$/i;

// A general preference or expectation: "I prefer…", "I'd rather you…", "I like it when you…".
export const PREFERENCE = [
  /\bI (?:always |really |strongly |generally |usually )?(?:prefer|like it when|love it when|hate it when|don't like it when|do not like it when|can't stand it when|expect you to|want you to always)\b/i,
  /\bI (?:really )?(?:hate|dislike|don't like|do not like|can't stand) (?!(?:it|this|that|these|those|when)\b)[a-z]+s\b/i,
  // "I'm tired of you asking for confirmation…", "I'd rather you didn't create a file for every helper".
  /\bI(?:'m| am) (?:so |really )?(?:tired|sick) of (?:you |your )?\w+ing\b|\bI(?:'d| would) rather you (?:didn't|did not|not|never|don't)\b/i,
  /\bI(?:'d| would) (?:rather|prefer|like) (?:you|that you|if you)\b[^.?!]*\b(?:than|instead|over|when|whenever)\b/i,
  /\bich (?:bevorzuge|präferiere|mag es(?: nicht)?,? wenn|hasse es,? wenn)\b|\bmir ist wichtig,? dass\b|\bich würde erwarten,? (?:dass|das)\b/i,
  /我(?:不|更)?喜欢|我希望你(?:以后|总是|每次)|我习惯|我偏好|\bje préfère (?:que|quand|qu'|les|des)\b|\bprefiero\b|\bprefiro\b|я предпочитаю/i,
  /\b(?:at|in) the (?:start|beginning|end) of (?:each|every|a|any) (?:session|conversation|response|reply|task)\b|\bbeim (?:start|beginn|ende) (?:einer|jeder) session\b/i,
  /\b(?:whenever|when|if) I (?:say|ask|write|speak|type|mention)\b[^.?!]*(?:\b(?:I mean|it means|that means|means|I need|I want|you should|please)\b|=>|→)|\bwenn ich\b[^.?!]*\b(?:spreche|sage|schreibe)\b/i,
];

// A choice among options on screen is not a preference: "I prefer the second option".
const CHOICE =
  /第[一二三四五]个|这个方案|那个方案|\b(?:the|la|le|die|der|das) (?:first|second|third|last|other|latter|former|deuxième|première|seconde|dernière|autre|erste|zweite|letzte) (?:one|option|version|approach|variant)?|\boption [a-z0-9]\b|\b(?:version|variant|approach) [a-z0-9]\b/i;

// "Do not reinit task-master, we don't want to lose the history": a prohibition of a thing (not "anything",
// "it") that says what it protects is a rule. "Do" otherwise starts a question ("Do you…").
export const REASONED_PROHIBITION = /^(?:please\s+)?(?:don't|do not|never)\s+(?!(?:\w+\s+)?(?:anything|everything|it|this|that|them)\b)\w+[^.?!]*?,\s*(?:we|I) (?:don't|do not) want to\b/i;

// A clause that says how things should be: an imperative, a modal, a "we <verb>" convention. Not a report
// ("the tests pass now"), whose subject is a thing, or "it"/"there".
const NOT_PRESCRIPTIVE_START =
  /^(?:the|a|an|it|its|it's|this|that|there|he|she|they|everything|nothing|something|all|is|was|were|has|had|which|who|where|whose|because|although|though|may|might|would|could|can|will|won't|only|some|my)\b/i;
const PRESCRIPTIVE_CUE = /\b(?:please|should|must|need to|have to|want|prefer|let's|make sure|don't|do not|never|always|no|avoid|use|keep|ask|we'll|we will|I'll|I will)\b/i;

/** The English scope marker sits in a clause that prescribes (the marker alone may be its own clause). */
const PURPOSE = /\b(?:prevent|avoid|so that|so it|so we|to make sure|in case)\b[^,;]*\b(?:in (?:the )?future|going forward)\b/i;

// "It should be able to take more types in the future": what a thing should do is the product's behaviour,
// which the code will hold.
const PRODUCT_BEHAVIOUR = /^(?:it|this|that|they|he|she)\s+(?:should|must|will|shall|needs? to|has to|have to|ought to)\b/i;
// "In the future, I'd like to add authentication…" plans the product; "from now on, I want…" sets a rule.
const FUTURE_TIME = /^in (?:the )?future$/i;
const FUTURE_PLAN =
  /^(?:I|we)(?:'d| would)?\s+(?:like|love|want|plan|hope|intend|aim|might|may|could|will|'ll)\s+(?:to\s+)?(?!always\b|never\b)(?:add|build|implement|support|create|make|have|integrate|enable|extend|offer|allow|introduce|expand|migrate|move|switch|use|try|explore|look)\b/i;

// Scope markers that are conditions ("every time you commit"), and the modal that makes a sentence a rule.
const CONDITION_SCOPE = /^(?:every time|each time|whenever)\b/i;
const RULE_MODAL = /\b(?:we|you) (?:should|must|need to|have to)\b/i;

function scopedPrescription(sentence: string): boolean {
  if (PLACE_SCOPE.test(sentence) && RULE_SUBJECT.test(sentence.replace(PLACE_SCOPE, ''))) return true;
  const parts = clauses(sentence);
  for (const [i, clause] of parts.entries()) {
    const match = SCOPE_EN.exec(clause);
    // "…to prevent the same issue in the future" is the purpose of a task.
    if (!match || PURPOSE.test(clause)) continue;
    // "every time you commit" is a condition: the rule is the clause around it ("run the linter every time
    // you commit", "every time you commit, run the linter"); alone it is a complaint ("every time you break it").
    const conditional = CONDITION_SCOPE.test(match[0]);
    if (conditional && RULE_MODAL.test(sentence)) return true; // "we should bump the version each time we release"
    const around = conditional ? clause.slice(0, match.index) : clause.replace(match[0], '');
    const rest = around.trim() || parts[i + 1] || '';
    if (!rest) {
      if (conditional) continue;
      return true;
    }
    const rule = rest.replace(/^(?:but|and|so|then)\s+/i, '');
    if (PRODUCT_BEHAVIOUR.test(rule) || (FUTURE_TIME.test(match[0]) && FUTURE_PLAN.test(rule))) continue;
    if (!NOT_PRESCRIPTIVE_START.test(rule) || PRESCRIPTIVE_CUE.test(rule)) return true;
  }
  return false;
}

// A convention stated as such: "that's the convention in this project", "our rule is…".
const CONVENTION =
  /(?:^|[.!;]\s*)(?:everything|all (?:code|files|tests|functions|commits|components)|every (?:file|test|function|commit|component|change)) (?:must|should) (?:always )?be\b|\b(?:that's|this is|it's|is) (?:the|our) (?:convention|rule|standard|policy|norm|house style)\b|\b(?:our|the) (?:convention|rule|policy|standard) (?:here |in this (?:repo|project|codebase) )?is\b|\bin this (?:repo|project|codebase),? we\b/i;

// A prohibition with a condition or a reason ("don't X unless Y", "never X — it broke prod"), a convention
// stated against its alternative ("we use date-fns, not moment"), who to ask first.
const QUALIFIED_RULE =
  /^(?:please\s+)?(?:don't|do not|never|avoid)\b(?!\s+(?:worry|bother|panic|stress|rush|hesitate|mind)\b)(?!\s+(?:\w+\s+)?(?:anything|everything|it|this|that|them|things)\b)[^.?!]*(?:\bunless\b|\bbecause\b|\bsince\b|[—–]|\botherwise\b|\bwithout (?:asking|checking|confirming|testing|running|telling)\b|\bwe (?:got|were|'ve been|have been) burned\b|\bbit us\b)|\bwe (?:use|prefer|write) (?:(?!(?:have|had|has|been|is|are|was|were)\b)\S+ ){0,2}\S+?,? (?:not|instead of|rather than) \w/i;
// Who to ask first, by name: "ask Priya before changing invoice logic".
const ASK_OWNER = /\b[Aa]sk [A-Z]\w+ (?:before|first)\b/;

// An imperative about the assistant's recurring output is a standing preference ("keep your answers
// short"); about one piece of it, a task ("make your answer shorter").
const RECURRING_OUTPUT =
  /^(?:please\s+)?(?:keep|make|write|give|format|start|end|stop)\s+(?:all\s+)?(?:of\s+)?your\s+(?:answers|responses|replies|explanations|summaries|commit messages|code comments|messages|PR descriptions)\b/i;

// A way of working asked for as a habit ("make a habit of writing the failing test first"), or for whenever
// the agent is unsure ("when you're not sure an API exists, just say so").
export const HABIT = /\bmake (?:it )?a habit (?:of|to)\b|\b(?:when|whenever|if) (?:you're|you are) (?:not sure|unsure|in doubt|uncertain)\b[^.?!]*\b(?:say|ask|tell|check|stop|admit)\b/i;

// How the user wants to be involved: "don't ask me to apply fixes", "stop asking me for permission".
const ASKING_ME = new RegExp(String.raw`(?:^|[.!;,]\s*)${LEAD}(?:don't|do not|never|stop) (?:ask|asking|ping|pinging|bother|bothering) me (?:to|for|whether|if|before|about|every)\b`, 'i');

// The language of every reply, with "only" or "always" ("respond only in Thai", "me responderás solamente en
// español"): without it, "answer in English" may be about one answer.
const LANGUAGES =
  '(?:english|chinese|mandarin|cantonese|japanese|korean|thai|vietnamese|indonesian|spanish|castilian|french|german|italian|portuguese|russian|ukrainian|polish|dutch|turkish|arabic|hebrew|hindi|español|castellano|inglés|français|anglais|deutsch|englisch|italiano|português|inglês|русском|английском)';
const REPLY_LANGUAGE = [
  new RegExp(
    String.raw`\b(?:respond|reply|answer|write|talk|speak|communicate)\b(?: to me| back)?,? (?:only|always|exclusively) in ${LANGUAGES}\b|\b(?:only|always) (?:respond|reply|answer|write|talk|speak|communicate)(?: to me)? in ${LANGUAGES}\b`,
    'i',
  ),
  new RegExp(
    String.raw`(?<![\p{L}])(?:resp[oó]nd|contest|r[ée]pond|antwort|escrib|[ée]cri|schreib|отвеча|пиши)[\p{L}-]*[^.?!]{0,20}?(?<![\p{L}])(?:solo|sólo|solamente|siempre|únicamente|toujours|uniquement|seulement|immer|nur|ausschließlich|sempre|somente|apenas|только|всегда) (?:en|auf|in|em|на|по-) ?${LANGUAGES}(?![\p{L}])`,
    'iu',
  ),
  /(?:只|总是|始终|一直|都)(?:用|使用)(?:中文|英文|日语|日文|简体中文|繁体中文)(?:回答|回复|交流|沟通)|(?:常に|必ず|いつも)日本語で|ตอบ(?:เป็น)?ภาษา\S{2,10}?เท่านั้น/,
];

// Work the user keeps for themselves: "do not test the frontend, I will test it myself", "leave the UI
// testing to me". A bare "I'll review it myself" is about one piece of work.
export const KEPT_BY_USER =
  /\b(?:don't|do not|no need to|never)\s+(?:test|review|deploy|release|commit|push|merge|publish)\b[^.?!]{0,60}\bI(?:'ll| will| do| always) (?:\w+ ){0,3}(?:myself|manually)\b|\b(?:test|tests|testing|deploys?|deployment|reviews?|commits|releases|merging|pushing)\b[^.?!]{0,20}\bleave (?:it|that|them|this) to me\b|\bleave (?:the )?(?:\w+ ){0,2}(?:test|tests|testing|deploys?|deployment|reviews?|commits|releases|merging|pushing) to me\b/i;

export function standing(sentence: string): boolean {
  if (REPLY_LANGUAGE.some((re) => re.test(sentence)) || KEPT_BY_USER.test(sentence) || REASONED_PROHIBITION.test(sentence)) return true;
  if (RECURRING_OUTPUT.test(sentence) || HABIT.test(sentence)) return true;
  if (CONVENTION.test(sentence) || QUALIFIED_RULE.test(sentence) || ASK_OWNER.test(sentence)) return true;
  if (ALWAYS_NEVER.some((re) => re.test(sentence)) || ASKING_ME.test(sentence)) return true;
  if (scopedPrescription(sentence)) return true;
  if (SCOPE_OTHER.some((re) => re.test(sentence))) return true;
  if (PREFERENCE.some((re) => re.test(sentence)) && !CHOICE.test(sentence)) return true;
  // "apply the changes yourself, always": a trailing always makes the imperative before it a rule.
  const parts = clauses(sentence);
  const last = parts.length;
  if (
    last >= 2 &&
    /^(?:always|never again|every (?:single )?time)\s*[.!]*$/i.test(parts[last - 1]!) &&
    !NOT_PRESCRIPTIVE_START.test(parts[last - 2]!) &&
    !/^(?:I|you|we|they|he|she)\b/i.test(parts[last - 2]!)
  )
    return true;
  // "don't touch the tests, just fix the code": the prohibition frames a one-off alternative.
  return !/,\s*just\s/i.test(sentence) && parts.some((clause) => NEGATED_GENERIC.test(clause));
}

// A scope that says the instruction holds from now on ("from now on", "going forward", "never again").
const LASTING_SCOPE =
  /\b(?:from now on|from here on(?: out)?|(?<!\b(?:plan|steps?|roadmap|strategy|path)\s)going forward(?! with)|moving forward(?! with)|henceforth|from today on|never again|(?:unless|until) I (?:say|tell you) otherwise)\b/i;

/**
 * A standing instruction addressed to the agent: with a lasting scope ("from now on answer in British
 * English"), or an imperative always/never ("never use emojis in commit messages", "you should always
 * run the tests", "when you commit, always sign off"). What the Stop hook keeps without being asked to
 * remember; a preference, a convention or a fact about the project stays an inference.
 */
export function standingInstruction(sentence: string): boolean {
  return LASTING_SCOPE.test(sentence) || ALWAYS_NEVER.slice(0, 3).some((re) => re.test(sentence));
}

// A rule stated with a modal or a lasting scope holds even when the same sentence also asks for a fix
// ("We should NEVER set timestamps by hand, please remove that"): its pointers are checked in its own clause.
export const STRONG_RULE =
  /\b(?:you|we)\s+(?:should|must)\s+(?:always|never)\b|\b(?:from now on|going forward|from here on|henceforth|never again)\b|\b(?:when|whenever|if|every time|each time) (?:you|we)\b[^.?!]*\b(?:always|never)\s+[a-z]/i;
