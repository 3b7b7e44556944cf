/**
 * The Porter stemmer (Porter 1980, "An algorithm for suffix stripping"), as the `stemmer` package
 * (2.0) gives it, without regular expressions: that package's twenty expressions are compiled on
 * the first words every process stems, a cost the prompt hook would pay for a prompt of five words
 * (bench `startup-tricks`, the stemmer case).
 * Its stems are this function's stems word for word (test/unit/porter.test.ts compares the two on
 * every word of the real fixtures and on generated ones). Pure.
 *
 * Porter's measure m counts the vowel-consonant pairs of [C](VC)^m[V], where a vowel run starts
 * with a, e, i, o, u or y and continues with a, e, i, o, u, and a consonant run starts with any
 * other character (y included) and continues with anything but a, e, i, o, u, y. A word's initial
 * y is taken as Y (a consonant) throughout, and put back at the end.
 */

/**
 * Suffix rules as [suffix, replacement], longest first: a step takes the longest suffix of its list
 * that leaves a stem (an order the comparison with the package would catch at once if it were wrong).
 */
type Rules = ReadonlyArray<readonly [string, string]>;

const STEP2: Rules = [
  ['ational', 'ate'],
  ['ization', 'ize'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['tional', 'tion'],
  ['biliti', 'ble'],
  ['entli', 'ent'],
  ['ousli', 'ous'],
  ['ation', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['alli', 'al'],
  ['ator', 'ate'],
  ['logi', 'log'],
  ['bli', 'ble'],
  ['eli', 'e'],
];

const STEP3: Rules = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ness', ''],
  ['ful', ''],
];

const STEP4: Rules = [
  ['ement', ''],
  ['ance', ''],
  ['ence', ''],
  ['able', ''],
  ['ible', ''],
  ['ment', ''],
  ['ant', ''],
  ['ent', ''],
  ['ism', ''],
  ['ate', ''],
  ['iti', ''],
  ['ous', ''],
  ['ive', ''],
  ['ize', ''],
  ['al', ''],
  ['er', ''],
  ['ic', ''],
  ['ou', ''],
];

const A = 97;
const E = 101;
const I = 105;
const O = 111;
const U = 117;
const Y = 121;

const isVowel = (code: number) => code === A || code === E || code === I || code === O || code === U;
const startsVowelRun = (code: number) => isVowel(code) || code === Y;

/** m of `word` (see above). */
function measure(word: string): number {
  const length = word.length;
  let i = 0;
  if (i < length && !isVowel(word.charCodeAt(i))) i = afterConsonants(word, i);
  let pairs = 0;
  while (i < length) {
    i++; // a vowel run's first character
    while (i < length && isVowel(word.charCodeAt(i))) i++;
    if (i === length) break;
    i = afterConsonants(word, i);
    pairs++;
  }
  return pairs;
}

/** Where the consonant run starting at `start` ends. */
function afterConsonants(word: string, start: number): number {
  let i = start + 1;
  while (i < word.length && !startsVowelRun(word.charCodeAt(i))) i++;
  return i;
}

/** Whether `word` holds a vowel run. */
function hasVowel(word: string): boolean {
  if (word.length > 0 && isVowel(word.charCodeAt(0))) return true;
  for (let i = 1; i < word.length; i++) if (startsVowelRun(word.charCodeAt(i))) return true;
  return false;
}

/** Whether `word` is one consonant run, one vowel and a last consonant other than w, x or y (cvc). */
function isConsonantVowelConsonant(word: string): boolean {
  if (word.length < 3 || isVowel(word.charCodeAt(0))) return false;
  const vowel = afterConsonants(word, 0);
  if (vowel !== word.length - 2 || !startsVowelRun(word.charCodeAt(vowel))) return false;
  const last = word.charCodeAt(vowel + 1);
  return !startsVowelRun(last) && last !== 119 && last !== 120; // w, x
}

/** Whether `word` ends in a double consonant other than l, s or z. */
function endsInDoubleConsonant(word: string): boolean {
  const last = word.charCodeAt(word.length - 1);
  return word.length >= 2 && last === word.charCodeAt(word.length - 2) && !startsVowelRun(last) && last !== 108 && last !== 115 && last !== 122; // l, s, z
}

/** The stem left by removing `suffix`, when `word` ends with it and at least one character stays. */
function stemBefore(word: string, suffix: string): string | undefined {
  return word.length > suffix.length && word.endsWith(suffix) ? word.slice(0, word.length - suffix.length) : undefined;
}

/** The longest rule of `rules` whose suffix `word` ends with, leaving a stem. */
function longestRule(word: string, rules: Rules): { stem: string; replacement: string } | undefined {
  for (const [suffix, replacement] of rules) {
    const stem = stemBefore(word, suffix);
    if (stem !== undefined) return { stem, replacement };
  }
  return undefined;
}

export function porterStem(value: string): string {
  let word = value.toLowerCase();
  if (word.length < 3) return word;
  const initialY = word.charCodeAt(0) === Y;
  if (initialY) word = `Y${word.slice(1)}`;

  // Step 1a: sses → ss, ies → i, s → (not after another s).
  if ((word.endsWith('sses') && word.length > 4) || (word.endsWith('ies') && word.length > 3)) word = word.slice(0, -2);
  else if (word.endsWith('s') && word.length > 2 && word.charCodeAt(word.length - 2) !== 115) word = word.slice(0, -1);

  // Step 1b: eed → ee (m > 0); ed, ing → (a vowel before), then at → ate, bl → ble, iz → ize, double consonants single, cvc → cvce.
  const beforeEed = stemBefore(word, 'eed');
  if (beforeEed !== undefined) {
    if (measure(beforeEed) > 0) word = word.slice(0, -1);
  } else {
    const stem = stemBefore(word, 'ed') ?? stemBefore(word, 'ing');
    if (stem !== undefined && hasVowel(stem)) {
      word = stem;
      if (word.endsWith('at') || word.endsWith('bl') || word.endsWith('iz')) word += 'e';
      else if (endsInDoubleConsonant(word)) word = word.slice(0, -1);
      else if (isConsonantVowelConsonant(word)) word += 'e';
    }
  }

  // Step 1c: y → i (a vowel before).
  const beforeY = stemBefore(word, 'y');
  if (beforeY !== undefined && hasVowel(beforeY)) word = `${beforeY}i`;

  // Steps 2 and 3: double and single suffixes mapped to shorter ones (m > 0).
  for (const rules of [STEP2, STEP3]) {
    const rule = longestRule(word, rules);
    if (rule && measure(rule.stem) > 0) word = rule.stem + rule.replacement;
  }

  // Step 4: suffixes removed (m > 1); ion only after s or t.
  const rule = longestRule(word, STEP4);
  if (rule) {
    if (measure(rule.stem) > 1) word = rule.stem;
  } else {
    const beforeIon = stemBefore(word, 'ion');
    if (beforeIon !== undefined && beforeIon.length > 1 && /* s or t */ (beforeIon.endsWith('s') || beforeIon.endsWith('t')) && measure(beforeIon) > 1) word = beforeIon;
  }

  // Step 5: a final e removed (m > 1, or m = 1 and not cvc); ll → l (m > 1).
  const beforeE = stemBefore(word, 'e');
  if (beforeE !== undefined) {
    const m = measure(beforeE);
    if (m > 1 || (m === 1 && !isConsonantVowelConsonant(beforeE))) word = beforeE;
  }
  if (word.endsWith('ll') && measure(word) > 1) word = word.slice(0, -1);

  return initialY ? `y${word.slice(1)}` : word;
}
