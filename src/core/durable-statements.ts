/**
 * What makes a user statement durable, judged clause by clause: an explicit request to keep
 * something (in several languages), a scope that outlives the task ("from now on", "in this
 * project", "whenever…", "以后"), a prescriptive always/never, a negated imperative with a generic
 * object, a general preference, who the user is, a standing project fact or an external place.
 * A pointer to the work on screen ("this/that/it/here", "for now", "this PR") makes it
 * task-scoped instead. Precision first: when in doubt, not durable. Pure.
 */
import { withoutControlCharacters } from './plain-text.js';
import type { MemoryType } from './taxonomy.js';

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

// Discourse particles that may open a clause before the verb ("ok, please always…").
const LEAD = String.raw`(?:(?:ok|okay|yes|yeah|yep|great|good|perfect|also|plus|and|but|so|oh|fyi|btw|hey|one more thing|ugh|god|damn|dude|man|seriously|come on|fuck me|jeez|please|pls|just)[,!.:]?\s+)*`;

// Where agents keep standing instructions: memory and the instruction files of Claude Code, Codex, Gemini,
// Cursor, Windsurf and Copilot.
const AGENT_NOTES = String.raw`CLAUDE\.md\b|claude md\b|AGENTS\.md\b|GEMINI\.md\b|\.?cursor ?rules?\b|\.windsurfrules\b|copilot-instructions\b|rules file\b|memory file\b|memory\b|memories\b`;
// "…and update CLAUDE.md with that information", "update this cursorrule file with this insight".
const RECORD_IN_NOTES = String.raw`\b(?:add|put|write|save|update|note|document|record)\b[^.?!]{0,40}(?<!\w)(?:${AGENT_NOTES})[^.?!]{0,20}\bwith (?:that|this|the) (?:information|info|rule|pattern|preference|convention|decision|insight|guideline|learning|lesson)\b`;

// An explicit request to keep something, in the languages users write in.
const MEMORY_REQUEST = [
  new RegExp(
    String.raw`(?:^|[.!;,]\s*)${LEAD}(?:remember|(?:keep|bear)(?: (?:this|that|it|these|those))? in mind|commit (?:this|that|it) to memory|don't forget|do not forget|never forget|note for later)\s*(?:[:—-]|,(?!\s+(?:we|I|you)\s+(?:still|need|have|must)\b)|that\b|this\b)|(?:^|[.!;,]\s*)${LEAD}(?:remember|note) (?:these|those|the following)\b[^.?!:\n]{0,30}:|(?:^|[.!;,]\s*)${LEAD}(?:keep|bear) (?:these|those|the following)\b[^.?!:\n]{0,30}? in mind\s*:|\b(?:I (?:want|need|'d like|would like) you to|you (?:should|must|need to|have to)) (?:always )?(?:remember|keep in mind|bear in mind)\s*(?:that\b|:)`,
    'i',
  ),
  /\b(?:note|noted|keep in mind|fyi|heads[- ]up|reminder)\s+for\s+(?:the\s+)?future(?:\s+sessions?)?\b|\bfor future reference\b|\b(?:for|in)\s+(?:all\s+)?(?:the\s+)?(?:future|later|next)\s+sessions?\b/i,
  new RegExp(
    String.raw`\b(?:save|store|add|put|keep|write)\s+(?:this|that|it)\s+(?:to|in|as|into)\s+(?:your\s+|a\s+|the\s+)?memor(?:y|ies)\b|\bmemori[sz]e\s+(?:this|that)\b|\bmake a (?:mental )?note\b|${RECORD_IN_NOTES}|\b(?:add|save|put|write) (?:this|that|the) (?:rule|pattern|preference|convention|decision)\b[^.?!]{0,20}\b(?:to|in|into) (?:\w+ )?(?:${AGENT_NOTES})|\b(?:add|put|write|note)\s+(?:(?:this|it)\s+)?(?:to|in|into)\s+(?:your\s+|the\s+)?(?:${AGENT_NOTES})\s*(?:that\b|:)|\b(?:save|store) (?:this )?(?:to|in) memory\b`,
    'i',
  ),
  /记住|记下来|记一下|记得以后|请记得|覚えて(?:おいて|ください)|忘れないで/,
  /\bmerke?\s+dir\b(?![^.?!]*\b(?:den|unseren) (?:stand|status)\b)|\bvergiss (?:das )?nie\b/i,
  /\b(?:im|in deinem|in dein|ins) (?:langzeit)?gedächtnis\b|\bals (?:leitlinie|regel|grundsatz|präferenz|learning|standard)\b|\b(?:abgespeichert|abspeichern|speichere?)\b[^.?!]*\bkünftig|\bkünftig\b[^.?!]*\b(?:abgespeichert|abspeichern)/i,
  /\bretiens\b|\bsouviens-toi\b|\bn'oublie (?:pas|jamais) que\b|\bgarde (?:bien )?en (?:tête|mémoire)\b/i,
  /\brecuerda\s+(?:que|:)|\bno olvides que\b|\bten en cuenta que\b|\blembre-se\b|\blembra (?:que|:)|\bnão (?:se )?esque[cç]a (?:de )?que\b/i,
  /(?:^|\s)(?:запомни|помни|не забывай)(?=[\s:,]|$)/i,
  // Italian, Dutch, Polish, Turkish, Indonesian: the imperative with "that" or a colon ("ricorda che…").
  /\bricorda(?:ti)?\s*(?:che\b|:)|\bnon dimenticare (?:mai )?che\b|\btieni (?:bene )?a mente (?:che\b|:)|\btienilo (?:bene )?presente\b|\btenlo (?:en cuenta|presente)\b|\bonthoud\s*(?:dat\b|goed\b|:)|\bvergeet (?:niet|nooit) dat\b|\bzapamiętaj(?=[\s:,]|$)|\bpamiętaj,?\s*(?:że|:)|\bunutma(?:yın)?,?\s*(?:ki\b|:)|\baklında tut\b|\bingat(?:lah)?,?\s*(?:bahwa\b|:)|\bjangan lupa,?\s*(?:bahwa\b|:)/i,
  // Korean, Vietnamese, Thai (no word boundaries to lean on).
  /기억해\s*(?:줘|둬|두세요|주세요)|잊지\s*마(?:세요|라)?|(?:^|[\s,.])(?:hãy nhớ|ghi nhớ|đừng quên)(?=[\s:,]|$)|จำไว้|อย่าลืมว่า/i,
];

// A rule to keep for later sessions, asked for as such: "create a rule that specifies…", "record this as a
// global rule", "add to cursor rules …", "write me a cursor rule that prevents…". Not a rule of the product
// or of a tool (a lint, firewall or validation rule).
const RULE_REQUEST =
  /^(?!.*\b(?:e?s?lint\w*|linter|biome|prettier|stylelint|firewall|iptables|nginx|validation|alert(?:ing)?|routing|regex|css|pricing|discount|security group|business)\b).*(?:\b(?:create|add|make|write|save)(?: me)? (?:a |an |another )?(?:new )?(?:global |cursor |project |agent |general |workspace )?rule\b(?: or update an existing one)?(?:\s*\([^)]*\))?[^.?!\n]{0,12}?\b(?:that|to|which|so|providing|recording|specifying|saying|stating)\b|\brecord (?:this|that|it) as a (?:global |new |general )?rule\b|\badd (?:this |it )?to (?:the |my |our )?(?:cursor |project )?rules\b|\bupdate (?:that|the|this|my) (?:[\w.-]+ )?rule to (?:specify|say|state|include|require|make sure)\b)/i;

// A rule request whose content is what came before it ("…make sure you never do this again").
const BACK_REFERENCE =
  /\b(?:do|doing|does) (?:this|that|it)\b|\bwhat we (?:just )?(?:learned|discussed|did)\b(?!\s+(?:re|about|regarding)\b)|\brecord(?:ing)? (?:this|that|it)\b|\b(?:this|that) (?:preference|convention|lesson|learning|decision|behaviou?r)\b/i;

// Remembering as recall, not as a request to keep: "remember when…", "can you remember what…".
const RECALLING = /\bremember\s+(?:when|what|how|where|why|which|the\s+\w+\s+(?:we|you|I)\b|if\b)|\b(?:can|do|did|could) you remember\b|\bdon't remember\b/i;

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
const PREFERENCE = [
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

// Approval of a way of working, meant to continue: "keep doing it this way", "that's how I want it from now on".
const CONFIRMATION =
  /\bkeep (?:doing (?:it|that|this)|(?:it|that|this) up|(?:it|that) (?:this|that) way|doing (?:it|that) like (?:this|that))\b|\bexactly (?:what|how) I want\b|\bthat's (?:how|what) I want\b|\bdo it like this (?:from now on|every time|again)\b|\bthat(?:'s| was| is) the right (?:call|approach|way)\b|\bthis is (?:exactly )?the (?:approach|way|level of detail|format|style|tone|length) I (?:want|like)\b|\b(?:that's|this is) how I (?:like|want) it\b|\bthat's (?:exactly )?the (?:\w+ ){1,2}I (?:want|like)\b|\b(?:more|all) of (?:this|that),? please\b|\b(?:use|do|apply) (?:this|that|the same)(?: \w+)? (?:for|in|on) (?:all|every|each|any) (?!the\b)\w+|\b(?:perfect|great|good|nice|love|like|works?|exactly)\b[^.?!]*\b(?:use|do|apply) it (?:for|in|on) (?:all|every|each|any) \w+/i;
// The way just shown, asked for again later: "please use this approach in the future as well".
const FUTURE_CONFIRMATION = new RegExp(
  String.raw`(?:^|[.!;,]\s*)${LEAD}(?:use|follow|apply|keep|take|do) (?:this|that|the same|it)\b[^.?!]*\b(?:in the future|in future|from now on|going forward|from here on|next time)\b`,
  'i',
);

// Who the user is: "I'm a data scientist on…", "I've been writing Go for ten years", "我是后端开发".
const IDENTITY = [
  /(?<!\b(?:thinks?|thought|says?|said|assumes?|assumed|believes?|believed|as if|like)\s+(?:that\s+)?)\bI(?:'m| am)\s+(?:just |only |basically |actually |also )?(?:a|an|the(?: only| lead| main| sole)?)\s+(?!\w+ing\b)(?!(?:bit|little|lot|few|problem|issue|question|error|moment|second|minute|mess|big fan|one|person|guy|idiot|fool|dummy|moron|genius|fan)\b)\w+/i,
  /\bI work (?:as|on|in|at|for)\s+(?:a|an|the)\b|\bmy (?:role|background|day job) is\b|\bmy job is (?:to|as|in)\b|\bI(?:'ve| have) been (?:writing|using|working with|working in|doing|coding in|programming in) [^.?!,]{1,30} for (?:\d+|a few|many|several|some|ten|five|two|three|\w+) years\b|\bthis is my first \w+(?: \w+)? (?:project|app|codebase)\b|\b(?:onboarded|joining|joined|hired|starting) as (?:a|an|the) (?:new )?\w+|\bI(?:'m| am) (?:a )?new (?:dev|developer|engineer|hire|member)\b|\bI have (?:some |a lot of |lots of |no |little |limited |years of |\d+ years of )?(?:professional )?experience (?:with|in)\b|\bI have no (?:\w+ )?(?:stack |language )?preference\b|\b(?:the )?company I work (?:for|at) is\b/i,
  /\bI(?:'m| am) (?:not )?a native \w+ speaker\b|\b(?:this is )?my first time (?:using|with|working with|trying) [A-Za-z]|\bI(?:'m| am)\s+(?:new to|not (?:very |really |that |too |all that |quite )?familiar with|(?:very |quite |most |more )?(?:familiar|comfortable) (?:with|in)|based in|in UTC|in the \w+ time ?zone|colou?rblind|dyslexic|left-handed|blind|deaf|visually impaired|hard of hearing)\b|\bmy pronouns are\b/i,
  /\bI(?:'m| am)\b[^.?!]{1,60}?,?\s+so\s+(?:please\s+)?(?:always|never|don't|do not|keep|use|explain|write|avoid|make|prefer)\b/i,
  /\bI(?:'m| am) (?:responsible for|in charge of|the owner of|on the \w+ team)\b|\bI (?:lead|manage|run|own) the (?:\w+ ){0,2}(?:team|group|department|company|org|organi[sz]ation|project|service|product|platform)\b|\bmy team (?:is|owns|works on)\b|\bas (?:a|an) \w+(?: \w+)?, I\b/i,
  // Experience, the user's machine and time: "Rust is brand new to me", "my laptop is an M2 mac",
  // "I only get about 30 min a day on this", "English isn't my first language".
  /\bI(?:'ve| have) (?:written|used|coded in|programmed in|worked with|done) [^.?!,]{1,30} for (?:\d+|a few|many|several|some|ten|five|two|three|\w+) years\b|\bis (?:brand |completely |totally |pretty |fairly |all )?new to me\b|\b\w+ (?:isn't|is not) my (?:first|native|mother) (?:language|tongue)\b|\b(?:my|work|my work) (?:laptop|machine|computer|workstation|desktop|pc|mac|dev (?:box|machine)) (?:is|has|runs|only has|doesn't|does not|can't|cannot)\b|\bI (?:only )?(?:get|have) (?:about |around |roughly |maybe )?\d+(?:-\d+)? ?(?:min|mins|minutes|hours?|h) (?:a|per|each) (?:day|week|evening|night)\b|\bI have (?:RSI|ADHD|dyslexia|a (?:visual|hearing) impairment)\b|저는[^.。]{0,20}(?:개발자|엔지니어|디자이너|기획자|학생)|\bjestem (?:na (?:Linuksie|Macu|Windowsie)|programist\w*)/i,
  /\bI (?:mostly|usually|mainly|primarily) (?:work|write|code|program|use)\b|\bmy (?:timezone|time zone|native language|first language) is\b|\bI(?:'m| am) on (?:Windows|macOS|a Mac|Linux)\b|\bI (?:develop|work|code|program) on (?:a |an |my )?(?:Windows|Mac|MacBook|macOS|Linux|Ubuntu|Debian|Fedora|Arch)\b|\bI live in\b|\bmy name is\b|\bcall me [A-Z]|\b(?:ich heiße|mein name ist|je m'appelle|me llamo)\b|我叫/i,
  /我是(?!不是)(?:一名|一个|个)?[^，。,\s]{0,8}(?:开发|工程师|设计师|经理|学生|科学家|分析师|程序员|负责人|维护者|产品|运维|测试)|\b[Ii]ch bin (?:ein|eine|der|die)\s+\w+|\b[Ii]ch bin [A-ZÄÖÜ]\w+(?:in|er|ent|ist|eur|or|ant)\b|\b[Ii]ch arbeite als\b/,
  /\bje suis (?:un |une )?(?:développeu|ingénieu|designer|data|product|étudiant|chef)\w*|\bsoy (?:un |una )?(?:desarrollador|ingenier|diseñador|programador|estudiante)\w*|\bя (?:разработчик|инженер|дизайнер|программист|студент)\w*|私は\S*(?:エンジニア|開発者|デザイナー)です/i,
];

// Where information lives outside the code: "the runbook lives in Confluence under …".
const TOOL = String.raw`(?:#[\w-]+|https?:\/\/\S+|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|io|dev|net|org|app)\b|(?:Confluence|Notion|Jira|Linear|Slack|Teams|Discord|Grafana|Datadog|Sentry|PagerDuty|Opsgenie|Google (?:Drive|Docs|Sheets)|Figma|Miro|Asana|Trello|Airtable|ClickUp|Kibana|Splunk|CloudWatch|New Relic|Honeycomb|Prometheus|1Password|Bitwarden|LastPass|Vault|LaunchDarkly|Postman|Swagger|Storybook|Zendesk|Intercom|SharePoint|OneDrive|Dropbox|the wiki|our wiki)\b|(?:an? |our )?(?:[\w-]+ )?S3 bucket\b|(?:an? |our )?(?:separate|different|other|another|shared) (?:[\w-]+ )?(?:repo|repository|drive|workspace|bucket)\b)`;
// A bare "is in Figma" needs a subject that is information ("the specs are in Figma", not "it is centered in Figma").
const ARTIFACT = String.raw`\b(?:docs?|documentation|designs?|specs?|mockups?|runbooks?|tickets?|bugs|issues|tasks|notes|boards?|dashboards?|credentials|secrets|passwords|keys|roadmap|backlog|logs|metrics|alerts|requirements|wiki|playbooks?|minutes|diagrams?|contracts?)\b`;
const REFERENCE = [
  new RegExp(
    String.raw`(?:\b(?:lives?|is kept|are kept|(?:is|are) (?:tracked|documented|filed|logged|managed|posted|stored)|can be found)|${ARTIFACT}[^.?!]{0,30}?\b(?:is|are))\s+(?:in|on|at|under)\s+(?:[^.?!]{0,40}?\s(?:in|on|at|under)\s+)?(?:the\s+)?${TOOL}`,
    'i',
  ),
  /\b(?:url|link|dashboard|board|docs?|wiki|runbook|channel|spreadsheet|tracker)\b[^.?!]{0,30}\bis\s+(?:at\s+)?(?:https?:\/\/|#[\w-])|\b(?:dashboard|runbook|wiki|board|channel|tracker|spreadsheet|docs)\b[^.?!]{0,40}\b(?:is|are|lives|live)\s+(?:at|in|on|under)\b|\b(?:go|goes|are posted|is posted|get posted)\s+(?:to|in)\s+#[\w-]+/i,
  // "bugs go in Linear", "feature flags live in LaunchDarkly", "ADRs are in a separate repo".
  new RegExp(
    String.raw`\b(?:bugs?|issues|tickets|feature flags?|flags|ADRs?|decisions|secrets|baselines)\s+(?:go|goes|live|lives|are|is|are kept|are tracked)\s+(?:in|on|into)\s+(?:the\s+)?${TOOL}`,
    'i',
  ),
  // The same in French, German, Spanish and Russian: "la doc est sur Notion", "stehen in Jira", "смотри в Kibana".
  new RegExp(
    String.raw`(?<![\p{L}])(?:est|sont|se trouvent?|vit|vivent) (?:sur|dans) (?:le |la |les |l')?${TOOL}|\b(?:steht|stehen|liegt|liegen|ist|sind|findest du|findet man)\b[^.?!]{0,40}\b(?:in|im|auf|unter) (?:dem |der )?${TOOL}|\b(?:está|están|vive|viven) en ${TOOL}|(?:смотри|лежат|лежит|хранятся|находятся) в ${TOOL}`,
    'iu',
  ),
  new RegExp(String.raw`^(?:please\s+)?(?:ask|post|ping|report|escalate)\b[^.?!]{0,30}\b(?:in|on|to)\s+${TOOL}[^.?!]*\b(?:when|whenever|if)\b`, 'i'),
];

// A decision or fact about the project meant to last.
const PROJECT = [
  /\b(?:is|are) deprecated\b|\bwill be (?:removed|deprecated|shut down|sunset)\b|\bthe (?:client|customer|legal team|compliance team|security team) (?:wants|requires|asked for|needs)\b|\bwe(?:'re| are) (?:freezing|deprecating|sunsetting|replacing)\b|\bwe(?:'re| are) (?:halfway through |in the middle of |currently |still )?(?:migrating|moving|switching|dropping)\b(?!\s+(?:on|ahead|forward|back|over|to (?:the )?next|to (?:a |the )?(?:new |next )?(?:step|task|phase|part|section|file|issue|plan|option|approach))\b)|\b(?:deadline|due date|launch|cutoff|go-live|cutover|(?:client|customer|investor|board) demo)\b[^.?!]{0,40}\b(?:is|on|by|after|until)\b|\b(?:compliance|legal|security) (?:requires|says)\b|^(?:the reason (?:we|our)\b|(?:we|I)(?:'ve| have)? decided\b(?! (?:to )?(?:go with|pick|choose|take|try)\b)|our (?:deadline|release|launch|rate limit|sla|budget)\b)|\bis owned by\b|\bbelongs to (?:another|a different|the \w+) team\b|\bgets? (?:deleted|removed|retired|sunset|replaced|rewritten) (?:next|in|by|at|on|this)\b|\bwe (?:deploy|release|ship|publish) (?:from|to|on) [^,.;?!]{1,30}? only\b|\b(?:can't|cannot|must not|mustn't) be \w+ (?:before|until)\b|\b(?:are|is) going away\b|\b(?:merge|code|release) freeze\b/i,
  // What kind of project it is, what may not be edited by hand, where it runs.
  /\b(?:it's|it is|its|this is) (?:just |only )?(?:a|an|my|our) (?:hobby|side|personal|pet|toy|school|university|learning|educational|private|internal|hackathon|throwaway) (?:project|prototype|app)\b|\b(?:it's|it is|this is) (?:just |only )?(?:a|an) (?:prototype|proof of concept|poc)\b|\b(?:is|are) (?:an? )?(?:auto(?:matically)?[- ]?generated|generated)\b[^.?!]*\b(?:can't|cannot|don't|do not|never|must not|mustn't|shouldn't|should not)\b|\b(?:production|prod|staging)\b (?:will )?(?:runs?|is hosted|is deployed|is running|lives) (?:on|in|at)\b/i,
  // A recurring schedule: "the staging DB is wiped every Sunday", "we deploy on Tuesdays only".
  /(?<!\b(?:should|must|needs? to|has to|will|to)\s)\b(?:is|are|gets?|runs?|happens?|goes out|go out|deploy|release|ship|rotate[sd]?|expires?|reset)\b[^.?!]{0,40}\b(?:every|each) (?:day|night|morning|evening|week|weekday|weekend|month|quarter|sprint|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b|\b(?:deploy|release|ship|merge)\w* (?:only )?on (?:mon|tues|wednes|thurs|fri|satur|sun)days\b/i,
];

// Pasted output and code (errors, paths, aligned columns, shell).
const PASTED_OUTPUT = /\b(?:\w*Error|error|warning|Traceback|Exception)\b:|(?:^|\s)(?:~|\.{0,2})\/[\w.-]+\/[\w.-]+|\S\s{4,}\S|\[\[|\$[A-Z_]{2,}\b/i;

// Pointers to the work at hand: "this PR", "for now", "use that", "here.", "this test".
const TASK_SCOPE = [
  /\b(?:this|that)\s+(?:one\s+)?(?:PR|pull request|commit|branch|ticket|task|test run|run|script|file|function|line|time)\b|\b(?:this|that|these|those)\s+(?:tests?|session|bug|error|issue|page|step|part|section|diff|output|loop|case|example|library|endpoint|query|feature|approach|idea|plan|option|version)\b/i,
  /\bin this one\b|\bfor now\b|\bfor this(?:\s+(?:one|time|task|run|change|fix|step|test|script|feature))?\s*[.,!]?\s*$|\bfor this (?:one|time|task|run|change|fix|step|feature)\b|\bright now\b|\b(?:today|today's|tonight|yesterday|this morning|this afternoon)\b|\b(?:das|dies|es)\s+(?:nicht|nie|jetzt)\b|\b(?:every|each|all|any) \w+ (?:you|we) (?:just )?\w+ed\b|\bnow\b(?!\s+on\b)|\byet\b|\bthere\b(?!\s+(?:is|are)\b)|\bhere\b\s*(?:[.,!]|$)(?!.*\b(?:project|repo)\b)/i,
  // ("I can do that" says who does it, not what to change.)
  /(?<!\bI (?:can |will |'ll )?)\b(?:do|use|change|touch|undo|revert|fix|try|run|delete|remove|move|copy|merge|push|implement|check|rename|install|open|close)\s+(?:it|this|that|these|those|them)\b(?!\s+(?:way|kind|sort|type|project|repo|codebase)\b)|\bany more \w+s\b|\bjust (?:do|go|continue|finish|fix|merge) (?:it|on|ahead)\b|\blet's\b(?![^.!?]*\b(?:always|never|from now on)\b)/i,
  /\bnever mind\b|\bnevermind\b/i,
  PASTED_OUTPUT,
  /先别|先把|这次|这个(?:文件|函数|PR)|先回滚|再说/,
];

// "the file" points at the work at hand, except inside a condition ("unless the file is generated").
const DEFINITE_TASK_OBJECT = /\bthe\s+(?:one\s+)?(?:PR|pull request|commit|branch|ticket|task|test run|run|script|file|function|line|time)\b/i;
const CONDITION = /\b(?:unless|if|when|whenever|before|after|until|once)\b[^,;.!?]*/gi;

const taskScoped = (sentence: string) => TASK_SCOPE.some((re) => re.test(sentence)) || DEFINITE_TASK_OBJECT.test(sentence.replace(CONDITION, ''));

// A document to make, even "for future reference" ("create a .md file in the module to explain it for future reference").
// So is a work item ("create a task to ensure all task operations always…"): its content is work to do.
const MAKE_A_DOCUMENT =
  /^(?:please\s+)?(?:create|write|generate|make|draft|open|file|add)\s+(?:a|an|the|some|new)\b[^.?!]{0,30}?\b(?:file|doc|docs|document|documentation|readme|page|guide|task|ticket|issue|todo|story|subtask)\b/i;

// A step of a plan ("Then write it into CLAUDE.md, always follow the pattern"), even with "for future reference".
const PLAN_STEP = /^(?:then|and then|after that|afterwards|finally|first|next,)\s/i;

// A request or question addressed to the assistant about the work at hand.
const ASKING =
  /^(?:can|could|would|will|should|shall|may|(?:do|did) (?:you|we|I|they|u)\b|does (?:it|this|that|the|he|she|anyone)\b|is|are|isn't|aren't|how|what|why|where|which|who|kannst|könntest|wie|was|wo|warum|(?:please\s+)?(?:suggest|propose|recommend|brainstorm|come up with))\b/i;

// "Do not reinit task-master, we don't want to lose the history": a prohibition of a thing (not "anything",
// "it") that says what it protects is a rule. "Do" otherwise starts a question ("Do you…").
const REASONED_PROHIBITION = /^(?:please\s+)?(?:don't|do not|never)\s+(?!(?:\w+\s+)?(?:anything|everything|it|this|that|them)\b)\w+[^.?!]*?,\s*(?:we|I) (?:don't|do not) want to\b/i;

// Words that open a sentence without changing what it says: "and please don't…", "oh and DONT…", "in general don't…".
const OPENERS = /^(?:(?:and|also|oh|plus|but|btw|so|ok|okay|one thing|one more thing|in general|generally|as a rule)[,!.:]?\s+)+/i;

/** The sentences of a message (CJK full stops too). */
function sentences(text: string): string[] {
  return (
    text
      // Not after a list's number ("1. Asking only once…" is one sentence).
      .split(/(?<=(?<!(?:^|\n)\s*\d{1,3})[.!?。！？])\s+|(?<=[。！？])|\n+/)
      .map((s) => s.trim())
      .filter(Boolean)
  );
}

/** The clauses of a sentence: split at commas, semicolons, colons and dashes. */
function clauses(sentence: string): string[] {
  return sentence
    .split(/\s*(?:[,;:，；：]|\s[—–-]\s|—)\s*/)
    .map((c) => c.trim())
    .filter(Boolean);
}

// 吗 ends a question clause wherever it stands ("是每次都要这样吗，…").
// So does a last clause that asks without a question mark ("the docs say it is deprecated, what should we use instead").
const isQuestion = (sentence: string) =>
  /[?？]\s*$/.test(sentence) || /吗(?:[。，,；;！!\s]|$)/.test(sentence) || /[,;]\s*(?:what|how|which|why|where|who) (?:should|do|does|can|could|would|is|are|was|were)\b[^,;]*$/i.test(sentence);

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
const HABIT = /\bmake (?:it )?a habit (?:of|to)\b|\b(?:when|whenever|if) (?:you're|you are) (?:not sure|unsure|in doubt|uncertain)\b[^.?!]*\b(?:say|ask|tell|check|stop|admit)\b/i;

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
const KEPT_BY_USER =
  /\b(?:don't|do not|no need to|never)\s+(?:test|review|deploy|release|commit|push|merge|publish)\b[^.?!]{0,60}\bI(?:'ll| will| do| always) (?:\w+ ){0,3}(?:myself|manually)\b|\b(?:test|tests|testing|deploys?|deployment|reviews?|commits|releases|merging|pushing)\b[^.?!]{0,20}\bleave (?:it|that|them|this) to me\b|\bleave (?:the )?(?:\w+ ){0,2}(?:test|tests|testing|deploys?|deployment|reviews?|commits|releases|merging|pushing) to me\b/i;

function standing(sentence: string): boolean {
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

// A rule stated with a modal or a lasting scope holds even when the same sentence also asks for a fix
// ("We should NEVER set timestamps by hand, please remove that"): its pointers are checked in its own clause.
const STRONG_RULE =
  /\b(?:you|we)\s+(?:should|must)\s+(?:always|never)\b|\b(?:from now on|going forward|from here on|henceforth|never again)\b|\b(?:when|whenever|if|every time|each time) (?:you|we)\b[^.?!]*\b(?:always|never)\s+[a-z]/i;

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

const NOTES_WRAPPER = new RegExp(String.raw`^(?:add|put|write|note)\s+(?:(?:this|it)\s+)?(?:to|in|into)\s+(?:your\s+|the\s+)?(?:${AGENT_NOTES})\s*(?:that\b|:)\s*`, 'i');
const RECORD_REQUEST = new RegExp(String.raw`,?\s*(?:and\s+)?(?:please\s+)?${RECORD_IN_NOTES}\s*(?:[:.!]|$)`, 'i');

/** Drop a leading "please remember:" / "Note for the future:" wrapper, keep the statement. */
function unwrap(text: string): string {
  return (
    text
      // "Keep these rules in mind:" keeps "rules:".
      .replace(/^(?:please\s+)?(?:keep|bear) (?:these|those|the following)\s+([^:\n]{0,30}?)\s+in mind\s*:/i, '$1:')
      .replace(
        /^(?:(?:ok|okay|yes|yeah|great|also|and|so|fyi|heads[- ]up|please|pls|going forward|from now on)[,!.\s]+)*(?:I (?:want|need|'d like|would like) you to\s+|you (?:should|must|need to|have to)\s+)?(?:please\s+)?(?:remember(?: (?:this|that|these|those|the following))?|note(?: (?:these|those|the following))?|(?:keep|bear)(?: (?:this|that|it|these|those))? in mind|make a note|(?:save|store|add|put|write|keep) (?:this|that|it) (?:to|in|as|into) (?:your |a |the )?memor(?:y|ies)|memori[sz]e(?: (?:this|that))?|commit (?:this|that|it) to memory)(?:\s+for\s+(?:the\s+)?(?:future|later|next time)(?:\s+sessions?)?)?\s*(?:[:,—-]|that\b)?\s*/i,
        '',
      )
      .replace(NOTES_WRAPPER, '')
      .replace(
        /^(?:please\s+)?(?:create|add|make|write)(?: me)? (?:a |an )?(?:new )?(?:global |cursor |project |agent |general )?rule (?:that (?:specifies|says|states|requires)(?: that)?|to (?:specify|say|state|record)(?: that)?|which says|that)\s*:?\s*/i,
        '',
      )
      // "…and update CLAUDE.md with that information": the request is not the content.
      .replace(RECORD_REQUEST, '')
      .replace(/^(?:heads[- ]up|fyi)\s+for\s+(?:the\s+)?future(?:\s+sessions)?\s*[:,—-]?\s*/i, '')
      .replace(/^(?:请)?(?:记住|记下来|记一下|记得)(?:这个|这一点|这点)?[，,：:\s]*|^(?:これを)?覚えて(?:おいて)?(?:ください)?[、，,：:\s]*/, '')
      .replace(
        /^(?:(?:bitte\s+)?merke?\s+dir(?:\s+bitte)?,?(?:\s+dass)?|lembre-se(?:\s+(?:de\s+)?que)?|recuerda(?:\s+que)?|retiens(?:\s+(?:bien\s+)?que)?|souviens-toi(?:\s+que)?|запомни,?(?:\s+что)?|помни,?(?:\s+что)?)[:,\s]*/i,
        '',
      )
      .replace(
        /^(?:ricorda(?:ti)?(?:\s+che)?|onthoud(?:\s+dat)?|zapamiętaj|pamiętaj,?(?:\s+że)?|unutma(?:yın)?,?(?:\s+ki)?|ingat(?:lah)?,?(?:\s+bahwa)?|hãy nhớ(?:\s+rằng)?|ghi nhớ|จำไว้(?:ว่า)?)[:,\s]*/i,
        '',
      )
      .trim()
  );
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

// Whole words in any script: with ASCII \b, "terças" ended in the word "as". "as" gives a reason only
// after a break (", as it is deprecated"), not in "publish it as Zigzag"; so does ", we don't want to…".
const WHY_MARKERS =
  /\s*(?:(?:[—–]|\s-\s|;|,)\s*(?<![\p{L}\p{N}])(as|(?:we|I) (?:don't|do not) want to)|(?:[—–]|\s-\s|;|,)?\s*(?<![\p{L}\p{N}])(because|since|so that|otherwise|we got burned|the reason is|weil|da))(?![\p{L}\p{N}])\s*/iu;

function whyOf(statement: string): { rule: string; why: string | null } {
  const match = WHY_MARKERS.exec(statement);
  if (!match || match.index < 12) return { rule: statement, why: null };
  const rule = statement.slice(0, match.index).replace(/[\s,;—–-]+$/, '');
  const why = statement.slice(match.index + match[0].length).trim();
  const lead = (match[1] ?? match[2])!.toLowerCase();
  // "because of the audit" reads as a reason; "the reason is X" as X.
  return { rule, why: why ? (lead === 'the reason is' ? why : `${lead} ${why}`) : null };
}

// Where something sits in the repository is what the code already shows (docs/architecture.md#memory-types),
// including which package files belong to ("the files are part of `twat.coding.pystubnik`").
const CODE_LOCATION =
  /\b(?:located|defined|declared|implemented|lives?|resides?|can be found|sits?)\b[^.?!]*?(?:[\w.-]+\/)+[\w.-]+\.\w{1,5}\b|\b(?:is|are) (?:part of|inside|under) `[\w./-]+`|\bbelongs? to `[\w./-]+`/i;
// A rule quoted from the rule file that already holds it: "we must never ignore errors according to @dont-ignore-errors.mdc".
const CITED_RULE = /\b(?:according to|as (?:per|stated in|described in|written in|specified in|defined in|said in)|per)\s+(?:the\s+|our\s+|my\s+)?@?[\w.'-]+\.(?:mdc|md)\b/i;
const WORK_POINTER =
  /^(?:that\s+)?(?:this|these)\s+(?:\w+\s+)?(?:tests?|code|files?|functions?|methods?|class|script|page|component|changes?|PR|branch|commit|endpoint|feature|step|task|bug|issue|output|results?|logs?)\b|^(?:этот|эту|это|эти)\s+(?:вывод|результат|код|файл|лог)/i;

const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)]|\(\d+\))\s/;

// Under 8 characters says nothing, but a CJK character is a word: "周二才能部署" (deploys only on Tuesdays) is a statement.
const tooShort = (statement: string) => statement.length + (statement.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g)?.length ?? 0) < 8;

// Long messages are mostly work material (specs, plans): only an explicit request to keep something counts
// there, and only its own sentence. Pastes (code, logs) and very long messages are never read.
const SHORT_MESSAGE = 600;
const MAX_MESSAGE = 2000;
const looksPasted = (text: string) => text.includes('```') || text.split('\n').length > 15;
// Two or more shell command lines: a pasted procedure or log (a task form's "git add …" steps), at any length.
const SHELL_LINE = /^\s*(?:\$\s+)?(?:git|npm|npx|pnpm|yarn|cd|ls|mkdir|rm|cp|mv|docker|kubectl|curl|wget|pip3?|python3?|node|make|cargo|go)\s+\S/gm;
const holdsCommands = (text: string) => (text.match(SHELL_LINE)?.length ?? 0) >= 2;
// "did you read this? https://… <the page's text>": what follows a link asked about is the page, not the user.
const QUESTION_WITH_LINK = /^[^\n]*\?\s*https?:\/\/\S+[^\n]*\n|^[^\n]*https?:\/\/\S+[^\n]*\?\s*\n/;
const withoutPageAfterLink = (text: string) => (QUESTION_WITH_LINK.test(text) ? text.slice(0, text.indexOf('\n')) : text);

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
const normalized = (text: string) => CONTRACTIONS.reduce((out, [re, to]) => out.replace(re, to), text);

export interface FindOptions {
  /** Only explicit requests to keep something ("remember…", "note for the future…"): nothing inferred. */
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
    if ((options.explicitOnly || (long && !identity) || (brief && LIST_ITEM.test(sentence)) || option) && !explicit) continue;
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
    if (kind === null) continue;
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
