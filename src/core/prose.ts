/*
 * The prose of a Markdown text: what a person wrote as sentences, as opposed to code,
 * quotations, URLs, file names, identifiers and formulas. Rules that read meaning into words
 * (relative dates) look at prose only. Pure.
 */

/** Character ranges [start, end) that are not prose. */
function nonProseRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const add = (re: RegExp, group = 0) => {
    for (const m of text.matchAll(re)) {
      const start = m.index + (group ? m[0].indexOf(m[group]!) : 0);
      ranges.push([start, start + m[group]!.length]);
    }
  };
  // Fenced code (to the closing fence or the end), HTML comments, inline code.
  add(/^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^[ \t]*\1[ \t]*$|(?![\s\S]))/gm);
  add(/<!--[\s\S]*?(?:-->|$(?![\s\S]))/g);
  add(/(`+)[^`\n][\s\S]*?\1/g);
  // Block quotes (a quoted e-mail, a cited message) and quotations within a line.
  add(/^[ \t]*>[^\n]*/gm);
  add(/"[^"\n]{1,300}"|“[^”\n]{1,300}”|«[^»\n]{1,300}»|「[^」\n]{1,300}」|『[^』\n]{1,300}』/g);
  // URLs and link targets.
  add(/\b(?:https?:\/\/|www\.)[^\s)>\]]+/gi);
  add(/\]\(([^)\s]+)[^)]*\)/g, 1);
  // File names, identifiers, UI labels: an ASCII word joined to another by `_ . / \ · - @ #`, or camelCase.
  add(/[\w@#$]*[A-Za-z0-9](?:[_./\\·@#-]+[A-Za-z0-9]+|[a-z][A-Z])[\w.·/\\@#-]*/g);
  // Formulas: a word beside an operator (`today = today_date − start`).
  add(/[A-Za-z]+(?=\s*(?:[=<>≤≥≈×÷−]|[+*/]\s))|(?<=(?:[=<>≤≥≈×÷−]|\s[+*/])\s*)[A-Za-z]+/g);
  return ranges;
}

/** `text` with everything that is not prose replaced by spaces (offsets and line breaks kept). */
export function proseOnly(text: string): string {
  const ranges = nonProseRanges(text);
  if (ranges.length === 0) return text;
  const chars = text.split('');
  for (const [start, end] of ranges) {
    for (let i = start; i < end; i++) if (chars[i] !== '\n') chars[i] = ' ';
  }
  return chars.join('');
}
