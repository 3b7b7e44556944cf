import { porterStem } from './porter.js';

const STOP = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over own same she should so some such than that the their them then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours ' +
    'let lets want need please tell know think go get got make like use using used one two way thing things ' +
    // Korean words of two or more syllables that say no more than the English ones above: pronouns,
    // conjunctions, adverbs of degree and time, and the common forms of 하다/있다/없다/되다/않다/같다/이다
    // (one-syllable words are too short to be terms anyway).
    '이거 그거 저거 이것 그것 저것 이걸 그걸 저걸 이건 그건 여기 거기 저기 이번 그럼 그러면 그래서 그리고 그런데 근데 하지만 ' +
    '내가 제가 우리 저희 너희 무엇 뭔가 어떻게 어떤 언제 어디 누가 그냥 진짜 정말 너무 아주 매우 조금 다시 바로 일단 먼저 나중 ' +
    '계속 한번 모두 전부 이미 아직 혹시 사실 약간 제발 빨리 있어 있는 있고 있는데 있다 있음 있나 있나요 있을까 있었지 있어요 ' +
    '없어 없는 없고 없다 없음 없나 해줘 해주세요 해요 하는 하고 하면 해서 했어 했는데 했잖아 할까 할게 할게요 한다 합니다 하자 ' +
    '됐어 된다 되는 되나 되나요 될까 됩니다 아냐 아니야 아니 않아 않고 않을까 않은 같아 같은 같은데 거야 거지 거면 건지 것도 이다 입니다'
  ).split(' '),
);
/** Chinese and Japanese characters: each is a word, and a sentence of them ends with 。. */
export const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
// Thai, Lao, Myanmar and Khmer are written without spaces too: their runs are cut into words like CJK ones.
const UNSPACED = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff]/;
/**
 * Number words match digits: "ten entries" finds "10 entries". A Map, not an object: a lookup in an
 * object literal finds what it inherits ("constructor" gave the Object function as a term).
 */
const NUMBERS = new Map<string, string>(
  Object.entries({
    one: '1',
    two: '2',
    three: '3',
    four: '4',
    five: '5',
    six: '6',
    seven: '7',
    eight: '8',
    nine: '9',
    ten: '10',
    eleven: '11',
    twelve: '12',
    first: '1',
    second: '2',
    third: '3',
  }),
);
let segmenter: Intl.Segmenter | undefined;
// Stemming dominates tokenizing; a directory's vocabulary is small, so cache it.
const stems = new Map<string, string>();

function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = porterStem(word);
    if (stems.size < 200_000) stems.set(word, stemmed);
  }
  return stemmed;
}

/**
 * Search terms of a text: lower-cased, stop words out, English words
 * stemmed (Porter, see porter.ts), CJK (and Thai, Lao, Myanmar, Khmer) runs cut into words by
 * Intl.Segmenter (no dictionary to ship, no native module).
 */
export function tokenize(text: string): string[] {
  // Plain ASCII text is scanned as written (no lower-cased copy), several times faster than the
  // general path. Tested first, natively: a text with one em dash near its end would otherwise be
  // scanned twice.
  return NON_ASCII.test(text) ? unicodeTerms(text) : asciiTerms(text);
}

const NON_ASCII = /[^\x00-\x7f]/;

function unicodeTerms(text: string): string[] {
  const lower = text.toLowerCase();
  // A few non-ASCII letters lower-case to ASCII (the Kelvin sign to k): such text is ASCII after all.
  if (!NON_ASCII.test(lower)) return asciiTerms(lower);
  const terms: string[] = [];
  unicodeWords(lower, (found, marks) => pushFound(terms, found, marks));
  return terms;
}

/**
 * The terms of one word as the scans found it: apostrophes dropped ("don't" is "dont", "user's" is
 * "user"), pieces between hyphens and underscores apart, unspaced scripts cut into words. The regular
 * expressions run only on the words whose marks say they may need them.
 */
function pushFound(terms: string[], found: string, marks: number): void {
  const word = marks & HAS_APOSTROPHE ? found.replace(/'s$|'/gi, '') : found;
  if (marks & MAY_BE_UNSPACED && UNSPACED.test(word)) {
    segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
    for (const part of segmenter.segment(word)) {
      if (!part.isWordLike) continue;
      if (UNSPACED.test(part.segment)) terms.push(part.segment);
      else if (part.segment.length > 1 && !STOP.has(part.segment)) terms.push(stem(part.segment));
    }
  } else if (marks & HAS_SEPARATOR) for (const piece of word.split(/[-_]/)) pushWord(terms, piece);
  else pushWord(terms, word);
}

/**
 * Korean writes a noun and its particle as one word ("안전망은", "안전망을", "hook이"): the particle
 * goes, so the noun is one term whatever role it plays. One particle, the longest that fits; a
 * one-syllable particle only after at least two syllables ("회의", meeting, keeps its 의), and after
 * Latin letters or digits ("CI가", "hook을") whatever their length.
 */
const PARTICLE =
  /^(.+?)(에서부터|으로부터|로부터|에게서|한테서|이라고|이라는|이라면|까지|부터|에서|에게|한테|께서|처럼|보다|으로|이나|이랑|하고|라고|라는|라면|이며|은|는|이|가|을|를|에|의|로|와|과|도|만|랑)$/;
const HANGUL_SYLLABLE = /[\uac00-\ud7a3]/;

function withoutParticle(word: string): string {
  const last = word.charCodeAt(word.length - 1);
  if (last < 0xac00 || last > 0xd7a3) return word;
  const match = PARTICLE.exec(word);
  if (!match) return word;
  const stem = match[1]!;
  const hangul = [...stem].filter((c) => HANGUL_SYLLABLE.test(c)).length;
  if (hangul === 0 || (match[2]!.length === 1 ? hangul >= 2 : hangul >= 1)) return stem;
  return word;
}

/** What `unicodeWords` says of a word besides its text. */
const HAS_APOSTROPHE = 1;
const HAS_SEPARATOR = 2; // a hyphen or an underscore
const MAY_BE_UNSPACED = 4; // a character from U+0E00 (Thai) up: UNSPACED says whether the word needs cutting

/**
 * Each match of /[\p{L}\p{N}][\p{L}\p{M}\p{N}'_-]*\/gu in `text`, in order, with its marks, found by a
 * scan that asks the expression about each distinct character once: run over a whole text, the
 * expression's Unicode classes cost more per character than anything else in reading real memories (which
 * nearly all hold an em dash, an arrow or a curly quote, so take this path).
 */
export function unicodeWords(text: string, onWord: (word: string, marks: number) => void): void {
  let start = -1;
  let marks = 0;
  for (let i = 0; i <= text.length; ) {
    let code = i < text.length ? text.charCodeAt(i) : 32;
    let width = 1;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const kind = characterKind(code);
    if (kind === LETTER_OR_DIGIT || (kind === COMBINING_MARK && start !== -1)) {
      if (start === -1) {
        start = i;
        marks = 0;
      }
      if (code >= 0x0e00) marks |= MAY_BE_UNSPACED;
    } else if (start !== -1) {
      if (code === APOSTROPHE) marks |= HAS_APOSTROPHE;
      else if (code === HYPHEN || code === UNDERSCORE) marks |= HAS_SEPARATOR;
      else {
        onWord(text.slice(start, i), marks);
        start = -1;
      }
    }
    i += width;
  }
}

const APOSTROPHE = 39;
const HYPHEN = 45;
const UNDERSCORE = 95;
const LETTER_OR_DIGIT = 1;
const COMBINING_MARK = 2; // continues a word (Thai vowels and tones, Devanagari signs, a decomposed accent)
const OTHER = 3;
// Made on first use: building the Unicode property classes costs start-up time, and ASCII text never asks.
let kindPattern: RegExp | undefined;
// What kindPattern said of each UTF-16 code unit seen (0: not asked yet).
const kindOfUnit = new Uint8Array(0x10000);

function characterKind(codePoint: number): number {
  if (codePoint > 0xffff) return kindOf(String.fromCodePoint(codePoint));
  let known = kindOfUnit[codePoint]!;
  if (known === 0) {
    known = kindOf(String.fromCharCode(codePoint));
    kindOfUnit[codePoint] = known;
  }
  return known;
}

function kindOf(character: string): number {
  const match = (kindPattern ??= /^(?:(\p{L}|\p{N})|(\p{M}))$/u).exec(character);
  return match?.[1] ? LETTER_OR_DIGIT : match?.[2] ? COMBINING_MARK : OTHER;
}

// The term of each word seen, as written (null: not a term), so a repeated word costs one lookup
// and "Release" is lower-cased once, not on every occurrence.
const termsOfWords = new Map<string, string | null>();

function pushWord(terms: string[], word: string): void {
  let term = termsOfWords.get(word);
  if (term === undefined) {
    const lower = withoutParticle(word).toLowerCase();
    term = lower.length < 2 || STOP.has(lower) ? null : (NUMBERS.get(lower) ?? (/^\d+$/.test(lower) ? lower : stem(lower)));
    if (termsOfWords.size < 200_000) termsOfWords.set(word, term);
  }
  if (term !== null) terms.push(term);
}

/**
 * `unicodeWords` for ASCII text, same words and marks (an apostrophe, hyphen or underscore continues a
 * word): a text's terms do not depend on whether it also holds one em dash somewhere.
 */
function asciiTerms(text: string): string[] {
  const terms: string[] = [];
  let start = -1;
  let marks = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    const wordChar = (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
    if (wordChar) {
      if (start === -1) {
        start = i;
        marks = 0;
      }
    } else if (start !== -1) {
      if (code === APOSTROPHE) marks |= HAS_APOSTROPHE;
      else if (code === HYPHEN || code === UNDERSCORE) marks |= HAS_SEPARATOR;
      else {
        const word = text.slice(start, i);
        if (marks === 0) pushWord(terms, word);
        else pushFound(terms, word, marks);
        start = -1;
      }
    }
  }
  return terms;
}
