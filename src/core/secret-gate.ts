/**
 * A cheap necessary condition for a secret rule, derived from its pattern: every match holds a run
 * of at least N letters and digits (and one of at least M "token" characters: letters, digits and
 * `_ . - + / =`). A text whose longest runs are shorter cannot hold a match, so the rule need not run
 * (nor, when no rule can match, the rule table be loaded at all). Most rules want a 20-to-64
 * character token; prose has words of a dozen letters. Pure; the bounds are computed from the
 * pattern's source, never listed by hand, so a new or changed rule is covered as it is.
 *
 * The analysis is conservative: anything it does not know (a back-reference, a class it cannot
 * read) counts as matching possibly nothing and no run character, which only lowers a bound.
 */

/** Lower bounds on the longest run of each class in any match: [letters and digits, token characters]. */
export type RunBounds = readonly [alnum: number, token: number];

const ALNUM = 0;
const TOKEN = 1;

/** Whether a character (one UTF-16 unit) is in a class: letters and digits; those and `_ . - + / =`. */
function inClass(code: number, cls: number): boolean {
  if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return true;
  return cls === TOKEN && (code === 95 || code === 46 || code === 45 || code === 43 || code === 47 || code === 61);
}

/**
 * The longest runs of letters and digits, and of token characters, in `text`: one pass, no copy.
 * A run counts UTF-16 units, as the patterns' quantifiers do.
 */
export function textRuns(text: string): RunBounds {
  let alnum = 0;
  let token = 0;
  let a = 0;
  let t = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      a++;
      t++;
      if (a > alnum) alnum = a;
      if (t > token) token = t;
    } else {
      a = 0;
      if (c === 95 || c === 46 || c === 45 || c === 43 || c === 47 || c === 61) {
        t++;
        if (t > token) token = t;
      } else t = 0;
    }
  }
  return [alnum, token];
}

/**
 * Over every string a pattern piece matches, lower bounds on: its leading run, its trailing run, its
 * longest run; and whether every such string is made only of run characters (then `min` is its least length).
 */
interface Summary {
  all: boolean;
  min: number;
  pre: number;
  suf: number;
  best: number;
}

const EMPTY: Summary = { all: true, min: 0, pre: 0, suf: 0, best: 0 };
/** A piece that may match anything (or nothing): the weakest claim. */
const UNKNOWN: Summary = { all: false, min: 0, pre: 0, suf: 0, best: 0 };
const RUN_CHAR: Summary = { all: true, min: 1, pre: 1, suf: 1, best: 1 };
const OTHER_CHAR: Summary = { all: false, min: 1, pre: 0, suf: 0, best: 0 };

function concat(a: Summary, b: Summary): Summary {
  return {
    all: a.all && b.all,
    min: a.min + b.min,
    pre: a.all ? a.min + b.pre : a.pre,
    suf: b.all ? a.suf + b.min : b.suf,
    best: Math.max(a.best, b.best, a.suf + b.pre),
  };
}

function either(list: Summary[]): Summary {
  return list.reduce((a, b) => ({
    all: a.all && b.all,
    min: Math.min(a.min, b.min),
    pre: Math.min(a.pre, b.pre),
    suf: Math.min(a.suf, b.suf),
    best: Math.min(a.best, b.best),
  }));
}

function repeat(piece: Summary, min: number): Summary {
  // Zero copies allowed: the empty string bounds every run at 0.
  if (min === 0) return { ...EMPTY, all: piece.all };
  // Past the first two copies every bound grows by the same step: no need to build a thousand copies.
  let out = piece;
  for (let i = 1; i < Math.min(min, 3); i++) out = concat(out, piece);
  if (min <= 3) return out;
  const two = concat(piece, piece);
  const three = out;
  const step = (f: (s: Summary) => number) => f(three) + (min - 3) * (f(three) - f(two));
  return { all: three.all, min: step((s) => s.min), pre: step((s) => s.pre), suf: step((s) => s.suf), best: step((s) => s.best) };
}

/** Characters a class or escape may match, as ranges of UTF-16 units; undefined: unknown (treated as any). */
type Ranges = Array<[number, number]> | undefined;

const DIGIT: Array<[number, number]> = [[48, 57]];
const WORD: Array<[number, number]> = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];

/** Whether every character of the ranges (and, case-insensitively, its other case) is a run character. */
function allIn(ranges: Ranges, negated: boolean, cls: number): boolean {
  if (!ranges || negated) return false;
  for (const [lo, hi] of ranges) {
    if (hi - lo > 200) return false;
    for (let c = lo; c <= hi; c++) if (!inClass(c, cls)) return false;
  }
  return true;
}

/** A lower-bound analysis of one pattern for one run class. */
class Analysis {
  private at = 0;
  constructor(
    private readonly source: string,
    private readonly cls: number,
  ) {}

  run(): Summary {
    const out = this.alternation();
    if (this.at < this.source.length) return UNKNOWN;
    return out;
  }

  private alternation(): Summary {
    const branches = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      branches.push(this.sequence());
    }
    return either(branches);
  }

  private sequence(): Summary {
    let out = EMPTY;
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.atom();
      out = concat(out, this.quantified(atom));
    }
    return out;
  }

  private quantified(atom: Summary): Summary {
    const s = this.source;
    const c = s[this.at];
    let min = 1;
    if (c === '*' || c === '?') {
      min = 0;
      this.at++;
    } else if (c === '+') this.at++;
    else if (c === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(s.slice(this.at, this.at + 16));
      if (!m) return atom; // a literal brace
      min = Number(m[1]);
      this.at += m[0].length;
    } else return atom;
    if (s[this.at] === '?') this.at++; // lazy
    return repeat(atom, min);
  }

  private atom(): Summary {
    const s = this.source;
    const c = s[this.at]!;
    if (c === '(') {
      this.at++;
      let zeroWidth = false;
      if (s[this.at] === '?') {
        const head = /^\?(?:<[A-Za-z_$][\w$]*>|:|<?[=!])/.exec(s.slice(this.at, this.at + 40));
        if (!head) throw new Error(`a group ${s.slice(this.at - 1, this.at + 3)}`);
        zeroWidth = /[=!]$/.test(head[0]);
        this.at += head[0].length;
      }
      const inner = this.alternation();
      if (s[this.at] !== ')') throw new Error('an unclosed group');
      this.at++;
      return zeroWidth ? EMPTY : inner;
    }
    if (c === '[') return this.charClass();
    if (c === '\\') return this.escape();
    this.at++;
    if (c === '^' || c === '$') return EMPTY;
    if (c === '.') return OTHER_CHAR;
    return inClass(c.charCodeAt(0), this.cls) ? RUN_CHAR : OTHER_CHAR;
  }

  private escape(): Summary {
    const s = this.source;
    const n = s[this.at + 1];
    this.at += 2;
    if (n === 'b' || n === 'B') return EMPTY;
    if (n === 'd') return allIn(DIGIT, false, this.cls) ? RUN_CHAR : OTHER_CHAR;
    if (n === 'w') return allIn(WORD, false, this.cls) ? RUN_CHAR : OTHER_CHAR;
    if (n === 'x' || n === 'u') {
      const hex = n === 'x' ? s.slice(this.at, this.at + 2) : s.slice(this.at, this.at + 4);
      if (!/^[0-9A-Fa-f]+$/.test(hex)) return UNKNOWN;
      this.at += hex.length;
      return inClass(Number.parseInt(hex, 16), this.cls) ? RUN_CHAR : OTHER_CHAR;
    }
    if (n === 'k' && s[this.at] === '<') {
      this.at = s.indexOf('>', this.at) + 1 || s.length; // a named back-reference
      return UNKNOWN;
    }
    if (n !== undefined && /[1-9]/.test(n)) {
      while (/[0-9]/.test(s[this.at] ?? '')) this.at++; // a back-reference
      return UNKNOWN;
    }
    if (n !== undefined && /[A-Za-z0-9]/.test(n)) return OTHER_CHAR; // \s \S \W \D \n \t …: one character, maybe any
    return n !== undefined && inClass(n.charCodeAt(0), this.cls) ? RUN_CHAR : OTHER_CHAR;
  }

  private charClass(): Summary {
    const s = this.source;
    this.at++;
    const negated = s[this.at] === '^';
    if (negated) this.at++;
    const ranges: Array<[number, number]> = [];
    let known = true;
    // (In JavaScript a `]` right after `[` closes the class: `[]` matches nothing, `[^]` anything.)
    while (this.at < s.length && s[this.at] !== ']') {
      const lo = this.classAtom();
      if (s[this.at] === '-' && s[this.at + 1] !== ']' && this.at + 1 < s.length) {
        this.at++;
        const hi = this.classAtom();
        if (lo === undefined || hi === undefined || typeof lo !== 'number' || typeof hi !== 'number') known = false;
        else ranges.push([lo, hi]);
        continue;
      }
      if (lo === undefined) known = false;
      else if (typeof lo === 'number') ranges.push([lo, lo]);
      else ranges.push(...lo);
    }
    if (s[this.at] !== ']') throw new Error('an unterminated class');
    this.at++;
    return allIn(known ? ranges : undefined, negated, this.cls) ? RUN_CHAR : OTHER_CHAR;
  }

  /** One character of a class (its code), a shorthand (its ranges), or undefined for one not known. */
  private classAtom(): number | Array<[number, number]> | undefined {
    const s = this.source;
    const c = s[this.at]!;
    if (c !== '\\') {
      this.at++;
      return c.charCodeAt(0);
    }
    const n = s[this.at + 1];
    this.at += 2;
    if (n === 'd') return DIGIT;
    if (n === 'w') return WORD;
    if (n === 'x' || n === 'u') {
      const hex = n === 'x' ? s.slice(this.at, this.at + 2) : s.slice(this.at, this.at + 4);
      if (!/^[0-9A-Fa-f]+$/.test(hex)) return undefined;
      this.at += hex.length;
      return Number.parseInt(hex, 16);
    }
    if (n !== undefined && /[A-Za-z0-9]/.test(n)) return undefined; // \s \S \W \D \t \n …
    return n?.charCodeAt(0);
  }
}

/**
 * Lower bounds on the longest run of letters and digits, and of token characters, in every match of
 * the pattern (`source` as `new RegExp` takes it; case-insensitivity does not change what is a letter).
 * 0 where nothing can be said. Unicode-mode patterns are not analysed (0, 0).
 */
export function runBounds(source: string, flags = ''): RunBounds {
  if (/[uv]/.test(flags)) return [0, 0];
  try {
    return [new Analysis(source, ALNUM).run().best, new Analysis(source, TOKEN).run().best];
  } catch {
    return [0, 0];
  }
}
