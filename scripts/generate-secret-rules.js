// npm run generate:secrets — memdir's secret rule table (src/core/gitleaks-rules.ts) from the vendored
// gitleaks config (vendor/gitleaks/gitleaks.toml) and the rules of its successor betterleaks
// (vendor/betterleaks/betterleaks.toml) that gitleaks has no rule of that id for. The unit tests
// regenerate it in memory and compare, so the committed table is always what this script makes of the
// vendored files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TOML_PATH = path.join(root, 'vendor/gitleaks/gitleaks.toml');
export const BETTERLEAKS_PATH = path.join(root, 'vendor/betterleaks/betterleaks.toml');
export const TABLE_PATH = path.join(root, 'src/core/gitleaks-rules.ts');
const COMMIT = 'b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b';
const BETTERLEAKS_COMMIT = '6381fa45ae946c588e2e1334d8396a15e5171ad6';

const POSIX = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f',
  space: String.raw`\t\n\v\f\r `,
  word: String.raw`\w`,
  punct: String.raw`!-\/:-@\[-\x60{-~`,
};

const isLetter = (c) => /^[A-Za-z]$/.test(c);
const otherCase = (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/**
 * One RE2 pattern as JavaScript: inline flags become JavaScript's (`(?i)` over the whole pattern is the
 * `i` flag; anywhere else its letters are expanded to both cases, since JavaScript has no inline flags),
 * `(?s:…)` dots match newlines, `(?P<n>` is `(?<n>`, `\z` is `$`, POSIX classes are spelled out, a `]`
 * opening a class is escaped. Throws on a construct it does not know, so the rule is dropped with a reason.
 */
export function re2ToJs(source) {
  let body = source;
  let flags = '';
  if (body.startsWith('(?i)') && !body.includes('(?-i')) {
    body = body.slice(4);
    flags = 'i';
  }
  const global = { i: flags === 'i', s: false };
  const stack = [];
  let cur = { ...global };
  let out = '';
  let at = 0;
  const fold = (c) => (cur.i && !global.i && isLetter(c) ? `[${c}${otherCase(c)}]` : c);
  while (at < body.length) {
    const c = body[at];
    if (c === '\\') {
      const n = body[at + 1];
      if (n === undefined) throw new Error('a trailing backslash');
      if (n === 'z') out += '$';
      else if (n === 'A') out += '^';
      else if (n === 'Q' || n === 'E' || n === 'C' || n === 'p' || n === 'P') throw new Error(`\\${n} has no JavaScript equivalent here`);
      else if (n === 'x') {
        const hex = body[at + 2] === '{' ? body.slice(at + 2, body.indexOf('}', at) + 1) : body.slice(at + 2, at + 4);
        out += hex.startsWith('{') ? `\\u${hex.slice(1, -1).padStart(4, '0')}` : `\\x${hex}`;
        at += 2 + hex.length;
        continue;
      } else out += `\\${n}`;
      at += 2;
      continue;
    }
    if (c === '[') {
      const [cls, end] = charClass(body, at, cur.i && !global.i);
      out += cls;
      at = end;
      continue;
    }
    if (c === '(') {
      if (body[at + 1] !== '?') {
        stack.push(cur);
        cur = { ...cur };
        out += '(';
        at++;
        continue;
      }
      const named = /^\(\?P?<([A-Za-z_]\w*)>/.exec(body.slice(at));
      if (named) {
        stack.push(cur);
        cur = { ...cur };
        out += `(?<${named[1]}>`;
        at += named[0].length;
        continue;
      }
      const flag = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(body.slice(at));
      if (!flag) throw new Error(`the group ${body.slice(at, at + 4)} has no JavaScript equivalent`);
      const next = { ...cur };
      for (const f of flag[1]) {
        if (f !== 'i' && f !== 's') throw new Error(`the flag ${f} has no JavaScript equivalent`);
        next[f] = true;
      }
      for (const f of flag[2] ?? '') {
        if (f !== 'i' && f !== 's') throw new Error(`the flag -${f} has no JavaScript equivalent`);
        next[f] = false;
      }
      if (next.i === false && global.i) throw new Error('(?-i) inside a case-insensitive pattern');
      if (flag[3] === ':') {
        stack.push(cur);
        out += '(?:';
      }
      cur = next;
      at += flag[0].length;
      continue;
    }
    if (c === ')') {
      cur = stack.pop() ?? global;
      out += ')';
      at++;
      continue;
    }
    if (c === '.' && cur.s) out += String.raw`[\s\S]`;
    else if ((c === '*' || c === '+' || c === '?' || c === '}') && body[at + 1] === '+') throw new Error('a possessive quantifier');
    else out += fold(c);
    at++;
  }
  new RegExp(out, `${flags}gd`); // throws on anything JavaScript still rejects
  return { source: out, flags };
}

/** The class opening at `at`, as JavaScript, and where it ends; `fold` adds the other case of each letter and range. */
function charClass(body, at, fold) {
  let i = at + 1;
  let out = '[';
  if (body[i] === '^') {
    out += '^';
    i++;
  }
  const extra = [];
  let first = true;
  while (i < body.length && (body[i] !== ']' || first)) {
    first = false;
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(body.slice(i));
    if (posix) {
      if (posix[1] || !POSIX[posix[2]]) throw new Error(`the class [:${posix[1]}${posix[2]}:]`);
      out += POSIX[posix[2]];
      i += posix[0].length;
      continue;
    }
    let atom;
    if (body[i] === '\\') {
      atom = body.slice(i, i + 2);
      if (atom === '\\x') atom = body.slice(i, i + 4);
      i += atom.length;
    } else {
      atom = body[i] === ']' || body[i] === '[' ? `\\${body[i]}` : body[i];
      i++;
    }
    if (body[i] === '-' && body[i + 1] !== ']' && body[i + 1] !== undefined) {
      const hi = body[i + 1] === '\\' ? body.slice(i + 1, i + 3) : body[i + 1];
      out += `${atom}-${hi}`;
      if (fold && isLetter(atom) && isLetter(hi) && (atom === atom.toLowerCase()) === (hi === hi.toLowerCase())) extra.push(`${otherCase(atom)}-${otherCase(hi)}`);
      i += 1 + hi.length;
      continue;
    }
    out += atom;
    if (fold && isLetter(atom)) extra.push(otherCase(atom));
  }
  if (body[i] !== ']') throw new Error('an unterminated class');
  return [`${out}${extra.join('')}]`, i + 1];
}

/** gitleaks' keyword-assignment template: `<provider word> … = <value>`; the lazy prefix before the word only widens the match. */
const TEMPLATE_PREFIX = String.raw`[\w.-]{0,50}?`;
const TEMPLATE = String.raw`(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`;
const TOKEN_END = String.raw`(?:[\x60'"\s;]|\\[nr]|$)`;
/** betterleaks' spelling of the same end (a quote may be escaped). */
const BETTERLEAKS_TOKEN_END = String.raw`(?:\\?['"\x60]|[\s;]|\\[nr]|$)`;
// (a `.` ends a token only where no word follows it: `….png` is a file name, not a token's end)
const WIDER_TOKEN_END = String.raw`(?:[\x60'"\s;,)}\]<>|&]|\.(?!\w)|\\[nr]|$)`;

/** Whether a rule may block an upload (`error`) or is only reported by lint (`warning`). */
function severityOf(rule) {
  // A provider word near an assignment and a value of a common shape: precise only with an entropy floor.
  if (rule.id.startsWith('generic')) return 'warning';
  // betterleaks reports it only beside another rule's match (a key next to its account name): alone, less sure.
  if (rule.required) return 'warning';
  if (rule.regex.includes(TEMPLATE) && !rule.entropy) return 'warning';
  return 'error';
}

function allowOf(list, dropped, id) {
  const out = [];
  for (const allow of list ?? []) {
    // Path allowlists (lock files, vendored code…) never apply to a memory file.
    if (allow.paths && (allow.condition === 'AND' || !allow.regexes)) continue;
    const regexes = [];
    for (const source of allow.regexes ?? []) {
      try {
        regexes.push(re2ToJs(source));
      } catch (error) {
        dropped.push(`${id}: allowlist pattern ${JSON.stringify(source)} (${error.message})`);
      }
    }
    const entry = { target: allow.regexTarget ?? 'secret', regexes, stopwords: (allow.stopwords ?? []).map((w) => w.toLowerCase()) };
    if (regexes.length || entry.stopwords.length) out.push(entry);
  }
  return out;
}

/** JSON for a String.raw template: a backtick or `${` would end or break it, so they are written as JSON escapes. */
function rawJson(value) {
  return JSON.stringify(value).replaceAll('`', '\\u0060').replaceAll('${', '\\u0024{');
}

/** `text` split at `sep` where it is not inside a string (`…`, "…") or brackets. */
function splitTopLevel(text, sep) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '`') i = text.indexOf('`', i + 1);
    else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth === 0 && text.startsWith(sep, i)) {
      parts.push(text.slice(start, i).trim());
      start = i + sep.length;
      i += sep.length - 1;
    }
    if (i === -1) throw new Error('an unterminated string');
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

/** The strings of a CEL list (`[`…`, "…"]`). */
function celStrings(list) {
  return splitTopLevel(list.trim().replace(/^\[|\]$/g, ''), ',').map((item) => {
    if (item.startsWith('`') && item.endsWith('`')) return item.slice(1, -1);
    if (item.startsWith('"') && item.endsWith('"')) return JSON.parse(item);
    throw new Error(`the list item ${item.slice(0, 20)}`);
  });
}

/**
 * A betterleaks rule's CEL `filter` (a finding is dropped when it holds) as gitleaks' fields: an entropy floor
 * (`entropy(finding["secret"]) <= N`), allowlists (`matchesAny(finding["secret"|"match"|"line"], [...])`,
 * `containsAny(finding["secret"], [...])`). A clause on the file's path never applies to a memory file.
 * Throws on anything else, so the rule is left out with the reason.
 */
export function celFilter(filter) {
  const out = { entropy: 0, allowlists: [] };
  for (const clause of splitTopLevel(filter.trim(), '||')) {
    const entropy = /^(?:filter\.)?entropy\(finding\["secret"\]\)\s*<=?\s*([\d.]+)$/.exec(clause);
    if (entropy) {
      out.entropy = Math.max(out.entropy, Number(entropy[1]));
      continue;
    }
    const call = /^(!?)(?:filter\.)?(matchesAny|containsAny)\(\s*([\s\S]*?)\s*,\s*(\[[\s\S]*\])\s*\)$/.exec(clause);
    if (!call) throw new Error(`a filter clause memdir cannot read (${clause.replace(/\s+/g, ' ').slice(0, 40)}…)`);
    const [, negated, fn, subject, list] = call;
    if (/\battributes\b/.test(subject)) continue;
    const target = /^finding\["(secret|match|line)"\]$/.exec(subject)?.[1];
    if (!target || negated) throw new Error(`a filter clause memdir cannot read (${negated}${fn} over ${subject})`);
    if (fn === 'matchesAny') out.allowlists.push({ regexTarget: target, regexes: celStrings(list) });
    else if (target === 'secret') out.allowlists.push({ stopwords: celStrings(list) });
    else throw new Error(`containsAny over the ${target}`);
  }
  return out;
}

/** betterleaks rules a memdir rule already covers, and better for a memory file. */
const COVERED_BY_MEMDIR = {
  // The whole URI would be the secret (redaction would drop the host), and `<password>` passes its class.
  'mongodb-connection-string': "memdir's uri-credential finds the password of any connection URI, placeholders aside",
};

/** betterleaks' rules whose id gitleaks has none for, in gitleaks' fields (see vendor/betterleaks/SOURCE.md). */
function fromBetterleaks(tomlText, gitleaksIds, dropped) {
  const out = [];
  for (const rule of parse(tomlText).rules) {
    if (gitleaksIds.has(rule.id)) continue;
    if (COVERED_BY_MEMDIR[rule.id]) {
      dropped.push(`${rule.id} (betterleaks): ${COVERED_BY_MEMDIR[rule.id]}`);
      continue;
    }
    if (rule.skipReport) {
      dropped.push(`${rule.id} (betterleaks): not reported on its own (an identifier another rule needs)`);
      continue;
    }
    let filter = { entropy: 0, allowlists: [] };
    try {
      if (rule.filter) filter = celFilter(rule.filter);
    } catch (error) {
      dropped.push(`${rule.id} (betterleaks): ${error.message}`);
      continue;
    }
    out.push({
      id: rule.id,
      description: rule.description,
      regex: rule.regex,
      path: rule.path,
      keywords: rule.keywords,
      secretGroup: rule.secretGroup,
      entropy: filter.entropy,
      allowlists: filter.allowlists,
      required: (rule.required ?? []).length > 0,
    });
  }
  return out;
}

/** The generated table's text, and the rules and patterns left out with why. */
export function generate(tomlText, betterleaksText = fs.readFileSync(BETTERLEAKS_PATH, 'utf8')) {
  const config = parse(tomlText);
  const dropped = [];
  const rules = [];
  const fromGitleaks = new Set(config.rules.map((r) => r.id));
  const added = fromBetterleaks(betterleaksText, fromGitleaks, dropped);
  for (const rule of [...config.rules, ...added]) {
    if (!rule.regex) {
      dropped.push(`${rule.id}: matches file names only (${rule.path}); a memory file is markdown`);
      continue;
    }
    if (rule.path) {
      dropped.push(`${rule.id}: applies only to files matching ${rule.path}; a memory file is markdown`);
      continue;
    }
    let regex = rule.regex;
    const lead = regex.startsWith('(?i)') ? '(?i)' : '';
    if (regex.startsWith(lead + TEMPLATE_PREFIX)) regex = lead + regex.slice(lead.length + TEMPLATE_PREFIX.length);
    let compiled;
    try {
      compiled = re2ToJs(regex);
    } catch (error) {
      dropped.push(`${rule.id}: ${error.message}`);
      continue;
    }
    rules.push({
      id: rule.id,
      description: rule.description,
      keywords: (rule.keywords ?? []).map((k) => k.toLowerCase()),
      // gitleaks ends a token at a quote, a space or `;` (code and config); in a memory it also ends a sentence,
      // a list, a parenthesis, a JSON or XML value or a table cell.
      source: compiled.source.replaceAll(TOKEN_END, WIDER_TOKEN_END).replaceAll(BETTERLEAKS_TOKEN_END, WIDER_TOKEN_END),
      flags: compiled.flags,
      secretGroup: rule.secretGroup ?? 0,
      entropy: rule.entropy ?? 0,
      severity: severityOf(rule),
      assigned: rule.id.startsWith('generic') || rule.regex.includes(TEMPLATE),
      allow: allowOf(rule.allowlists, dropped, rule.id),
    });
  }
  const globalAllow = allowOf([config.allowlist], dropped, 'global');
  const lines = [
    '// Generated by scripts/generate-secret-rules.js (npm run generate:secrets) from vendor/gitleaks/gitleaks.toml',
    `// (gitleaks ${COMMIT}, MIT licence, vendor/gitleaks/LICENSE) and, for ids gitleaks lacks, vendor/betterleaks/betterleaks.toml`,
    `// (betterleaks ${BETTERLEAKS_COMMIT}, MIT licence, vendor/betterleaks/LICENSE). Do not edit; a unit test checks it is current.`,
    ...(dropped.length ? ['//', '// Left out:', ...dropped.map((d) => `// - ${d}`)] : []),
    '',
    '/** One gitleaks rule as JavaScript: `source`/`flags` make the RegExp; `secretGroup` 0: the first group that matched, else the whole match. */',
    'export interface GeneratedRule {',
    '  id: string;',
    '  description: string;',
    '  /** Lowercase; the text (lowercased) must contain one before the pattern runs. */',
    '  keywords: string[];',
    '  source: string;',
    '  flags: string;',
    '  secretGroup: number;',
    '  /** Minimum Shannon entropy (bits per character) of the secret; 0: none. */',
    '  entropy: number;',
    "  severity: 'error' | 'warning';",
    '  /** A value assigned to a provider word (`<word> … = <value>`), not a token with its own format. */',
    '  assigned: boolean;',
    '  allow: GeneratedAllow[];',
    '}',
    '',
    '/** A finding is allowed when one regex matches its target (the secret, the match or the line) or the secret contains a stopword. */',
    'export interface GeneratedAllow {',
    "  target: 'secret' | 'match' | 'line';",
    '  regexes: Array<{ source: string; flags: string }>;',
    '  stopwords: string[];',
    '}',
    '',
    `export const GITLEAKS_COMMIT = '${COMMIT}';`,
    '',
    '// JSON text rather than object literals: V8 parses JSON faster than the same data as JavaScript (the',
    "// CLI's bundles read it from dist/gitleaks-rules.json instead, see tsup.config.ts).",
    `export const GITLEAKS_RULES: readonly GeneratedRule[] = JSON.parse(String.raw\`[\n${rules.map((r) => rawJson(r)).join(',\n')}\n]\`);`,
    '',
    `export const GITLEAKS_GLOBAL_ALLOW: readonly GeneratedAllow[] = JSON.parse(String.raw\`${rawJson(globalAllow)}\`);`,
    '',
  ];
  return { text: lines.join('\n'), rules, dropped };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { text, rules, dropped } = generate(fs.readFileSync(TOML_PATH, 'utf8'));
  fs.writeFileSync(TABLE_PATH, text);
  for (const reason of dropped) process.stderr.write(`left out: ${reason}\n`);
  const warnings = rules.filter((r) => r.severity === 'warning').length;
  process.stdout.write(`wrote ${rules.length} rules (${rules.length - warnings} errors, ${warnings} warnings) to ${path.relative(root, TABLE_PATH)}\n`);
}
