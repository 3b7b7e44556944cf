/**
 * Text in a memory that is aimed at the agent rather than about the project: a memory is loaded
 * into every later session (team memory into every teammate's), so an instruction planted in one
 * — from a transcript, a teammate's clone or a tool's output — acts with the user's authority.
 * Five kinds, each precise enough to block a pulled file: phrases that override the agent's
 * instructions, hidden Unicode, pipe-to-shell instructions, instructions to send data out, and
 * long opaque blobs. What a memory quotes (code, quotations) is a reference, not an instruction:
 * override phrases and pipe-to-shell count only outside them. Pure.
 */

export type PoisonKind = 'instruction-override' | 'hidden-unicode' | 'pipe-to-shell' | 'exfiltration' | 'opaque-blob';

export interface PoisonFinding {
  kind: PoisonKind;
  /** Offset in the text scanned. */
  index: number;
  /** What was found, printable: hidden characters are named by code point, never echoed. */
  detail: string;
}

const QUOTED = [
  /^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^[ \t]*\1[ \t]*$|(?![\s\S]))/gm,
  /(`+)[^`\n][\s\S]*?\1/g,
  /^[ \t]*>[^\n]*/gm,
  /"[^"\n]{1,300}"|“[^”\n]{1,300}”|'[^'\n]{1,300}'(?!\w)|‘[^’\n]{1,300}’|«[^»\n]{1,300}»|「[^」\n]{1,300}」|『[^』\n]{1,300}』/g,
];

/** `text` with code, block quotes and quotations blanked (offsets and line breaks kept): what it says in its own voice. */
function ownVoice(text: string): string {
  let voice = text;
  for (const re of QUOTED) voice = voice.replace(re, (quoted) => quoted.replace(/[^\n]/g, ' '));
  return voice;
}

// Addressed to the agent: "ignore all previous instructions", "disregard the system prompt", in several languages.
const OVERRIDE = new RegExp(
  [
    String.raw`\b(?:ignore|disregard|forget|override|bypass|drop)\s+(?:(?:all|any|every|the|your|of|these|those)\s+){0,3}(?:previous|prior|above|earlier|preceding|former|original|system|existing)\s+(?:instructions?|prompts?|rules|guidelines|directions|directives|context|messages)\b`,
    String.raw`\b(?:ignore|disregard)\s+(?:the\s+|your\s+)?system\s+prompt\b`,
    String.raw`\byou\s+are\s+now\s+(?:in\s+)?(?:DAN|developer\s+mode|jailbroken|an?\s+unrestricted|no\s+longer\s+bound)\b`,
    String.raw`\b(?:new|updated|real)\s+system\s+(?:prompt|instructions?)\s*:`,
    String.raw`\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|let)\s+the\s+user\b(?!\s+(?:know\s+)?(?:about\s+)?(?:internal|the\s+(?:implementation|internals)))`,
    String.raw`\bwithout\s+(?:telling|informing|asking|notifying)\s+the\s+user\b`,
    String.raw`\bignora\s+(?:todas\s+)?las\s+instrucciones\s+(?:anteriores|previas)\b`,
    String.raw`\bignorez?\s+(?:toutes\s+)?les\s+instructions\s+(?:précédentes|antérieures)\b`,
    String.raw`\bignorier(?:e|en)?\s+(?:alle\s+)?(?:vorherigen|bisherigen|obigen|früheren)\s+(?:Anweisungen|Instruktionen|Befehle)\b`,
    String.raw`\bигнорируй(?:те)?\s+(?:все\s+)?(?:предыдущие|прежние)\s+(?:инструкции|указания)`,
    String.raw`(?:忽略|无视|忽视|無視)(?:掉)?(?:之前|以上|前面|先前|上面|所有|全部)(?:的)?(?:所有|全部)?(?:的)?(?:指令|指示|说明|規則|规则|提示|命令)`,
    String.raw`(?:以前|前|上記|これまで)の(?:指示|命令|指令|ルール)を(?:すべて|全て)?無視`,
    String.raw`(?:이전|위의|앞의)\s*(?:모든\s*)?(?:지시|명령|지침)(?:사항)?(?:을|를)?\s*무시`,
    String.raw`不要(?:告诉|通知|让)用户`,
  ].join('|'),
  'giu',
);

// A download piped into an interpreter: `curl … | sh`, `bash <(curl …)`, `iwr … | iex`.
const PIPE_TO_SHELL =
  /\b(?:curl|wget|fetch)\b[^\n|]{0,300}\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|k|da|fi)?sh\b|\b(?:ba|z)?sh\s+(?:-c\s+)?["']?\$?<?\(\s*(?:curl|wget)\b|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n|]{0,300}\|\s*(?:iex|Invoke-Expression)\b/gi;

// What an attacker wants sent: credentials, the environment, the conversation.
const LOOT = String.raw`(?:secrets?|credentials?|api[\s_-]?keys?|access\s+keys?|tokens?|passwords?|env(?:ironment)?(?:\s+variables)?|\.env\b|ssh\s+keys?|private\s+keys?|~\/\.ssh|~\/\.aws|id_rsa|conversation|chat\s+history|transcripts?|session\s+(?:history|contents)|memory\s+files|source\s+code|codebase)`;
// Within one sentence: a full stop counts only before a space or the end (".env", "v1.2" go on).
const SAME_SENTENCE = String.raw`(?:[^\n.]|\.(?=\S))`;
const EXFIL_PROSE = new RegExp(
  String.raw`\b(?:send|post|upload|forward|exfiltrate|transmit|leak|copy|paste|e-?mail|report)\b${SAME_SENTENCE}{0,80}?${LOOT}${SAME_SENTENCE}{0,80}?\b(?:to|into|at)\s+(?:https?:\/\/|(?:an?\s+|the\s+|this\s+|my\s+)?(?:external\s+|remote\s+)?(?:url|endpoint|webhook|server|pastebin|gist|discord|telegram|slack\s+webhook)\b)`,
  'gi',
);
// A command that ships a credential file or the environment to a URL.
const EXFIL_COMMAND =
  /\b(?:curl|wget|nc|ncat|Invoke-WebRequest|Invoke-RestMethod)\b[^\n]{0,200}?(?:(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|--post-(?:data|file)|-Body)\s*=?\s*["']?@?(?:~\/\.ssh|~\/\.aws|~\/\.netrc|~\/\.npmrc|\.env\b|\/etc\/(?:passwd|shadow)|id_(?:rsa|ed25519))|\$\(\s*(?:env|printenv|cat\s+[^)]*(?:\.ssh|\.aws|\.env|\.netrc|\.npmrc|id_rsa|id_ed25519|credentials))|\$\{?(?:[A-Z0-9_]*(?:TOKEN|SECRET|API_KEY|PASSWORD)[A-Z0-9_]*)\}?)/gi;

// Base64 or hex with no break for 256 characters: a memory says things in words.
// Matched from the start of a run only (the look-behind): trying every position inside a long word costs its length each time.
const BLOB = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{256,}={0,2}/g;
// What a reference memory may hold that looks like a blob: an SSH public key, an image data URI.
const KNOWN_BLOB_PREFIX = /(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+$|data:image\/[a-z+.-]+;base64,$/i;

const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060\u180E\uFEFF]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/gu;
// The same characters, found without the Unicode flag's cost (U+E0000–U+E01EF by their high surrogate): most texts hold none.
const MAY_HIDE = /[\u180E\u200B-\u200D\u202A-\u202E\u2060\u2066-\u2069\uFEFF\uDB40]/;
// Scripts and sequences in which a zero-width joiner or non-joiner is part of the writing.
const JOINER_CONTEXT =
  /[\p{Extended_Pictographic}\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Syriac}\p{Script=Mongolian}]|[\u{1F3FB}-\u{1F3FF}]|\uFE0F/u;

const HIDDEN_NAMES: Array<[number, number, string]> = [
  [0x202a, 0x202e, 'bidirectional control'],
  [0x2066, 0x2069, 'bidirectional isolate'],
  [0x200b, 0x200d, 'zero-width character'],
  [0x2060, 0x2060, 'word joiner'],
  [0x180e, 0x180e, 'Mongolian vowel separator'],
  [0xfeff, 0xfeff, 'zero-width no-break space'],
  [0xe0000, 0xe007f, 'tag character (invisible text)'],
  [0xe0100, 0xe01ef, 'variation selector (invisible text)'],
];

const codePoint = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

function hiddenName(cp: number): string {
  return HIDDEN_NAMES.find(([low, high]) => cp >= low && cp <= high)?.[2] ?? 'invisible character';
}

/** Hidden characters, one finding per line: legitimate joiners (emoji sequences, Indic and Arabic script) and a leading byte-order mark pass. */
function hiddenUnicode(text: string): PoisonFinding[] {
  if (!MAY_HIDE.test(text)) return [];
  const byLine = new Map<number, { index: number; points: number[] }>();
  for (const m of text.matchAll(HIDDEN)) {
    const cp = m[0].codePointAt(0)!;
    if (cp === 0xfeff && m.index === 0) continue;
    if (cp === 0x200c || cp === 0x200d) {
      const before = [...text.slice(Math.max(0, m.index - 2), m.index)].at(-1) ?? '';
      const after = [...text.slice(m.index + 1, m.index + 3)][0] ?? '';
      if (JOINER_CONTEXT.test(before) && JOINER_CONTEXT.test(after)) continue;
    }
    const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
    const line = byLine.get(lineStart) ?? { index: m.index, points: [] };
    line.points.push(cp);
    byLine.set(lineStart, line);
  }
  return [...byLine.values()].map(({ index, points }) => {
    const distinct = [...new Set(points)];
    const named = distinct.slice(0, 3).map((cp) => `${codePoint(cp)} ${hiddenName(cp)}`);
    const more = distinct.length > 3 ? ` and ${distinct.length - 3} more` : '';
    return { kind: 'hidden-unicode' as const, index, detail: `${points.length === 1 ? 'a hidden character' : `${points.length} hidden characters`} (${named.join(', ')}${more})` };
  });
}

/** A matched phrase as it can be printed: whitespace collapsed, hidden characters named, at most 60 characters. */
function printable(phrase: string): string {
  const shown = phrase.replace(/\s+/g, ' ').replace(HIDDEN, (c) => `<${codePoint(c.codePointAt(0)!)}>`);
  return shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
}

const BLOB_RUN = 256;
// A-Z a-z 0-9 + / _ -
const isBlobUnit = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 47 && c <= 57) || c === 43 || c === 95 || c === 45;

/**
 * Whether the text has a run of 256 blob characters at all, looking at about one character in 256 (the
 * pattern's look-behind is tried at every place): a run that long must cover every 256th place, so a
 * place outside a run rules out the 255 before it, and a short run found around a place rules out
 * everything to its end.
 */
function mayHoldBlob(text: string): boolean {
  let at = BLOB_RUN - 1; // no run of 256 lies wholly before `at`
  while (at < text.length) {
    if (!isBlobUnit(text.charCodeAt(at))) {
      at += BLOB_RUN;
      continue;
    }
    let run = 1;
    while (run < BLOB_RUN && at - run >= 0 && isBlobUnit(text.charCodeAt(at - run))) run++;
    let end = at + 1;
    while (run < BLOB_RUN && end < text.length && isBlobUnit(text.charCodeAt(end))) {
      run++;
      end++;
    }
    if (run >= BLOB_RUN) return true;
    at = end + BLOB_RUN; // `end` is outside the run (or past the text)
  }
  return false;
}

function blobs(text: string): PoisonFinding[] {
  const found: PoisonFinding[] = [];
  if (!mayHoldBlob(text)) return found;
  for (const m of text.matchAll(BLOB)) {
    if (KNOWN_BLOB_PREFIX.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
    // A long run of one word character repeated, or a path of words, is not opaque.
    if (!/\d/.test(m[0]) || !/[A-Za-z]/.test(m[0]) || /^[a-z]+(?:[_-][a-z]+)+$/i.test(m[0])) continue;
    found.push({ kind: 'opaque-blob', index: m.index, detail: `an opaque blob of ${m[0].length} characters` });
  }
  return found;
}

// A rule against the thing ("never pipe curl into sh", "don't send tokens to a webhook") is not an instruction to do it.
const NEGATION = /\b(?:never|don't|do\s+not|must\s+not|mustn't|shouldn't|should\s+not|avoid|no\s+one|nobody|refuse|forbidden|prohibited)\b|不要|禁止|不得|しない|しないで|禁止/i;

// A word every phrase rule above starts from or needs: one cheap pass decides whether they run.
const TRIGGER =
  /\b(?:ignor|disregard|forget|override|bypass|drop|you\s+are\s+now|system|tell|inform|mention|reveal|let\s+the|without|curl|wget|fetch|iwr|irm|invoke-|nc(?:at)?\b|send|post|upload|forward|exfiltrat|transmit|leak|copy|paste|report)|mail|игнор|忽略|无视|忽视|無視|무시|不要/i;

// The words without which OVERRIDE and PIPE_TO_SHELL cannot match (with their flags): compiling OVERRIDE is a
// noticeable part of a memory write's guard (bench `guard`), and most texts TRIGGER lets through ("copy", "report") hold none of them.
const MAY_OVERRIDE = /ignor|disregard|forget|override|bypass|drop|you\s+are\s+now|system|tell|inform|mention|reveal|let|without|игнор|忽略|无视|忽视|無視|무시|不要/iu;
const MAY_PIPE = /curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod/i;

/** Whether the sentence holding `index` (from its start to there) says not to. */
function negated(voice: string, index: number): boolean {
  const start = Math.max(...['.', '!', '?', '\n', '。', '！', '？'].map((stop) => voice.lastIndexOf(stop, index - 1))) + 1;
  return NEGATION.test(voice.slice(start, index));
}

/** Everything in `text` that looks aimed at the agent, in text order. */
export function findPoisoning(text: string): PoisonFinding[] {
  // Most memories hold none of the words the phrase rules start from: their own voice is not worth working out.
  const triggered = TRIGGER.test(text);
  // …and neither hidden characters nor a blob: nothing to find, nothing to allocate.
  if (!triggered && !MAY_HIDE.test(text) && !mayHoldBlob(text)) return [];
  // Nor are the phrase rules' patterns worth compiling (a process's first match compiles them).
  const found: PoisonFinding[] = [];
  if (triggered) {
    const voice = ownVoice(text);
    if (MAY_OVERRIDE.test(voice))
      for (const m of voice.matchAll(OVERRIDE)) found.push({ kind: 'instruction-override', index: m.index, detail: `"${printable(text.slice(m.index, m.index + m[0].length))}"` });
    if (MAY_PIPE.test(voice))
      for (const m of voice.matchAll(PIPE_TO_SHELL)) if (!negated(voice, m.index)) found.push({ kind: 'pipe-to-shell', index: m.index, detail: 'an instruction to pipe a download into a shell' });
    for (const m of voice.matchAll(EXFIL_PROSE)) if (!negated(voice, m.index)) found.push({ kind: 'exfiltration', index: m.index, detail: 'an instruction to send data to an outside address' });
    for (const m of text.matchAll(EXFIL_COMMAND)) found.push({ kind: 'exfiltration', index: m.index, detail: 'a command that sends credentials or the environment out' });
  }
  found.push(...hiddenUnicode(text), ...blobs(text));
  // One finding of a kind per line: two override phrases in one sentence are one thing to remove.
  const seen = new Set<string>();
  return found
    .sort((a, b) => a.index - b.index)
    .filter((f) => {
      const key = `${f.kind}@${text.lastIndexOf('\n', f.index - 1)}`;
      return !seen.has(key) && Boolean(seen.add(key));
    });
}

/** Why `text` must not become a memory, or undefined: its first finding, as a report says it. */
export function poisoningProblem(text: string): string | undefined {
  const finding = findPoisoning(text)[0];
  return finding && `looks aimed at the agent, not about the project (${finding.kind}: ${finding.detail})`;
}
