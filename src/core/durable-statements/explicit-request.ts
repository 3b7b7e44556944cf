/**
 * Family "explicit request": the user asks for something to be kept ("remember…", "note for the
 * future…", "create a rule that…", "add this to CLAUDE.md…"), in the languages users write in. Also
 * what only looks like one (remembering as recall, a document or a work item to make, the work on
 * screen), and the wrapper that is dropped from the statement. Pure.
 */
import { LEAD } from './message.js';

// Where agents keep standing instructions: memory and the instruction files of Claude Code, Codex, Gemini,
// Cursor, Windsurf and Copilot.
const AGENT_NOTES = String.raw`CLAUDE\.md\b|claude md\b|AGENTS\.md\b|GEMINI\.md\b|\.?cursor ?rules?\b|\.windsurfrules\b|copilot-instructions\b|rules file\b|memory file\b|memory\b|memories\b`;
// "…and update CLAUDE.md with that information", "update this cursorrule file with this insight".
const RECORD_IN_NOTES = String.raw`\b(?:add|put|write|save|update|note|document|record)\b[^.?!]{0,40}(?<!\w)(?:${AGENT_NOTES})[^.?!]{0,20}\bwith (?:that|this|the) (?:information|info|rule|pattern|preference|convention|decision|insight|guideline|learning|lesson)\b`;

// An explicit request to keep something, in the languages users write in.
export const MEMORY_REQUEST = [
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
export const RULE_REQUEST =
  /^(?!.*\b(?:e?s?lint\w*|linter|biome|prettier|stylelint|firewall|iptables|nginx|validation|alert(?:ing)?|routing|regex|css|pricing|discount|security group|business)\b).*(?:\b(?:create|add|make|write|save)(?: me)? (?:a |an |another )?(?:new )?(?:global |cursor |project |agent |general |workspace )?rule\b(?: or update an existing one)?(?:\s*\([^)]*\))?[^.?!\n]{0,12}?\b(?:that|to|which|so|providing|recording|specifying|saying|stating)\b|\brecord (?:this|that|it) as a (?:global |new |general )?rule\b|\badd (?:this |it )?to (?:the |my |our )?(?:cursor |project )?rules\b|\bupdate (?:that|the|this|my) (?:[\w.-]+ )?rule to (?:specify|say|state|include|require|make sure)\b)/i;

// A rule request whose content is what came before it ("…make sure you never do this again").
export const BACK_REFERENCE =
  /\b(?:do|doing|does) (?:this|that|it)\b|\bwhat we (?:just )?(?:learned|discussed|did)\b(?!\s+(?:re|about|regarding)\b)|\brecord(?:ing)? (?:this|that|it)\b|\b(?:this|that) (?:preference|convention|lesson|learning|decision|behaviou?r)\b/i;

// Remembering as recall, not as a request to keep: "remember when…", "can you remember what…".
export const RECALLING = /\bremember\s+(?:when|what|how|where|why|which|the\s+\w+\s+(?:we|you|I)\b|if\b)|\b(?:can|do|did|could) you remember\b|\bdon't remember\b/i;

// A document to make, even "for future reference" ("create a .md file in the module to explain it for future reference").
// So is a work item ("create a task to ensure all task operations always…"): its content is work to do.
export const MAKE_A_DOCUMENT =
  /^(?:please\s+)?(?:create|write|generate|make|draft|open|file|add)\s+(?:a|an|the|some|new)\b[^.?!]{0,30}?\b(?:file|doc|docs|document|documentation|readme|page|guide|task|ticket|issue|todo|story|subtask)\b/i;

const NOTES_WRAPPER = new RegExp(String.raw`^(?:add|put|write|note)\s+(?:(?:this|it)\s+)?(?:to|in|into)\s+(?:your\s+|the\s+)?(?:${AGENT_NOTES})\s*(?:that\b|:)\s*`, 'i');
const RECORD_REQUEST = new RegExp(String.raw`,?\s*(?:and\s+)?(?:please\s+)?${RECORD_IN_NOTES}\s*(?:[:.!]|$)`, 'i');

/** Drop a leading "please remember:" / "Note for the future:" wrapper, keep the statement. */
export function unwrap(text: string): string {
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

export const WORK_POINTER =
  /^(?:that\s+)?(?:this|these)\s+(?:\w+\s+)?(?:tests?|code|files?|functions?|methods?|class|script|page|component|changes?|PR|branch|commit|endpoint|feature|step|task|bug|issue|output|results?|logs?)\b|^(?:этот|эту|это|эти)\s+(?:вывод|результат|код|файл|лог)/i;
