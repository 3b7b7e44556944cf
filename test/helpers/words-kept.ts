/**
 * The "nothing lost" check for refactor, written apart from the code it checks (it imports nothing from src/).
 *
 * Rule: every word of the original directory must still occur, at least as many times, in the union of the
 * files after. Words are runs of letters, marks and digits in any script; scripts written without spaces
 * (Han, kana, Thai…) count per character. Case and width do not matter (NFKC, lower case). Two things are
 * excused: the target of a Markdown link (pointer syntax: a pointer may be renamed or re-targeted) and the
 * words of a relative date ("today", "next Thursday", "上周"…) that a rewrite replaced by an ISO date — one
 * excuse per ISO date the after-state gained, and only outside code. Text said twice is counted once: an exact
 * duplicate line, or a hook that repeats a `description:` (or another line) word for word, may go.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A directory as text: relative path → content. */
export type DirTexts = Record<string, string>;

/** An original line with the words of it that are missing after. */
export interface LostLine {
  file: string;
  line: number;
  text: string;
  words: string[];
}

export interface WordsKept {
  lost: LostLine[];
  /** Relative dates whose words are gone because a rewrite turned them into ISO dates. */
  excusedDates: Array<{ file: string; line: number; phrase: string }>;
}

const NO_SPACE_SCRIPT = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}`;
const TOKEN = new RegExp(String.raw`[${NO_SPACE_SCRIPT}]|(?:(?![${NO_SPACE_SCRIPT}])[\p{L}\p{M}\p{N}])+`, 'gu');
const LINK_TARGET = /\]\([^)]*\)/g;
const POINTER_HEAD = /^(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\([^)]*\)\s*[—–:;-]*\s*/;
const INLINE_CODE = /`[^`]*`/g;
const FENCE = /^\s*(```|~~~)/;
const ISO_DATE = /(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)/g;

const WEEKDAY = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';
const AMOUNT = '(?:\\d+|a|an|one|two|three|four|five|six|seven|a few|a couple of|several)';
const UNIT = '(?:days?|weeks?|months?|years?)';
/** Relative dates in English, Chinese (both scripts), Japanese and Korean, as a rewrite may meet them. */
const RELATIVE_DATE = new RegExp(
  [
    String.raw`\b(?:the\s+)?day\s+(?:before\s+yesterday|after\s+tomorrow)\b`,
    String.raw`\b(?:today|tonight|tomorrow|yesterday)\b`,
    String.raw`\b(?:this|next|last|coming|past)\s+(?:week|weekend|month|quarter|year|${WEEKDAY})\b`,
    String.raw`\b${AMOUNT}\s+${UNIT}\s+(?:ago|from\s+now)\b`,
    String.raw`\bin\s+${AMOUNT}\s+${UNIT}\b`,
    String.raw`\b(?:on\s+)?${WEEKDAY}\b`,
    '(?:今天|明天|昨天|后天|後天|前天|今晚|今年|去年|明年)',
    '(?:上|下|本|这|這)(?:个|個)?(?:周|週|星期|月)[一二三四五六日天]?',
    '(?:周|週|星期)[一二三四五六日天]',
    '[一二三两兩几幾\\d]+(?:天|周|週|个月|個月)(?:前|后|後)',
    '(?:明後日|一昨日|今日|明日|昨日|来週|先週|今週|来月|先月|今月|来年)',
    '[月火水木金土日]曜日?',
    '(?:오늘|내일|어제|모레|그저께|(?:다음|지난|이번)\\s?(?:주|달))',
    '[월화수목금토일]요일',
  ].join('|'),
  'giu',
);

function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** The words of one line, pointer targets left out. */
export function wordsOf(line: string): string[] {
  return normalize(line).replace(LINK_TARGET, '](').match(TOKEN) ?? [];
}

function countWords(lines: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    for (const word of wordsOf(line)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

const allLines = (texts: DirTexts) => Object.values(texts).flatMap((text) => text.split(/\r?\n/));

/** What a line says without its pointer syntax or YAML key: the part that may stand elsewhere word for word. */
function contentOf(line: string): string {
  return line
    .replace(POINTER_HEAD, '')
    .replace(/^[\p{L}_][\p{L}\p{N}_-]*:\s+/u, '')
    .replace(/^(["'])(.*)\1$/, '$2')
    .trim();
}

/** The original's words, text said twice counted once (see the module comment). */
function countOriginalWords(texts: DirTexts): Map<string, number> {
  const seenLines = new Set<string>();
  const seenContent = new Set<string>();
  const counts = new Map<string, number>();
  for (const raw of allLines(texts)) {
    const line = normalize(raw).trim();
    if (seenLines.has(line)) continue;
    seenLines.add(line);
    const words = wordsOf(line);
    const content = contentOf(line);
    if (wordsOf(content).length > 0 && seenContent.has(content)) {
      for (const w of wordsOf(content)) {
        const at = words.lastIndexOf(w);
        if (at >= 0) words.splice(at, 1);
      }
    }
    seenContent.add(content);
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return counts;
}

function countIsoDates(texts: DirTexts): number {
  return Object.values(texts).reduce((sum, text) => sum + (text.match(ISO_DATE)?.length ?? 0), 0);
}

interface Line {
  file: string;
  line: number;
  text: string;
  inCode: boolean;
}

function linesOf(texts: DirTexts): Line[] {
  const out: Line[] = [];
  for (const [file, text] of Object.entries(texts)) {
    let inCode = false;
    text.split(/\r?\n/).forEach((line, i) => {
      const fence = FENCE.test(line);
      out.push({ file, line: i + 1, text: line, inCode: inCode || fence });
      if (fence) inCode = !inCode;
    });
  }
  return out;
}

/** Which original words are missing from the after-state, attributed to the lines most likely lost. */
export function checkWordsKept(before: DirTexts, after: DirTexts): WordsKept {
  const deficit = new Map<string, number>();
  const afterCounts = countWords(allLines(after));
  for (const [word, n] of countOriginalWords(before)) {
    const missing = n - (afterCounts.get(word) ?? 0);
    if (missing > 0) deficit.set(word, missing);
  }
  const lines = linesOf(before);
  const excusedDates = excuseRewrittenDates(lines, deficit, countIsoDates(after) - countIsoDates(before));
  return { lost: attribute(lines, deficit, before, after), excusedDates };
}

/** Each ISO date gained pays for one relative date whose words (some or all) went missing. */
function excuseRewrittenDates(lines: Line[], deficit: Map<string, number>, datesGained: number): WordsKept['excusedDates'] {
  const excused: WordsKept['excusedDates'] = [];
  for (const { file, line, text, inCode } of lines) {
    if (inCode) continue;
    for (const match of normalize(text).replace(INLINE_CODE, ' ').matchAll(RELATIVE_DATE)) {
      if (excused.length >= datesGained) return excused;
      // "this week" → "week of 2026-11-23" keeps a word of the phrase: only the missing ones are excused.
      const missing = (match[0].match(TOKEN) ?? []).filter((w) => (deficit.get(w) ?? 0) > 0);
      if (missing.length === 0) continue;
      for (const w of missing) deficit.set(w, deficit.get(w)! - 1);
      excused.push({ file, line, phrase: match[0] });
    }
  }
  return excused;
}

/**
 * Which lines lost the missing words, most likely first: lines of a topic file that is still there but lost
 * those words in place (MEMORY.md's content moves out by design, so it does not count as in place), then lines
 * that did not survive verbatim anywhere, then the rest; within each, lines with more missing words first. A
 * dropped clause shows as its own line, not as words scattered over lines that are still there.
 */
function attribute(lines: Line[], deficit: Map<string, number>, before: DirTexts, after: DirTexts): LostLine[] {
  const remaining = new Map([...deficit].filter(([, n]) => n > 0));
  if (remaining.size === 0) return [];
  const afterText = Object.values(after).map(normalize).join('\n');
  const droppedInPlace = new Map<string, Map<string, number>>();
  for (const [file, text] of Object.entries(before)) {
    if (file === 'MEMORY.md' || after[file] === undefined) continue;
    const kept = countWords(after[file]!.split(/\r?\n/));
    const drop = new Map([...countWords(text.split(/\r?\n/))].map(([w, n]) => [w, n - (kept.get(w) ?? 0)] as const).filter(([, n]) => n > 0));
    if (drop.size > 0) droppedInPlace.set(file, drop);
  }
  const tier = ({ file, text }: Line) => {
    const line = normalize(text).trim();
    const drop = droppedInPlace.get(file);
    if (drop && !normalize(after[file]!).includes(line) && wordsOf(text).some((w) => drop.has(w) && remaining.has(w))) return 0;
    // A pointer whose hook now stands in its topic file survived: only its pointer syntax changed.
    const body = line.replace(POINTER_HEAD, '') || line;
    return afterText.includes(line) || afterText.includes(body) ? 2 : 1;
  };
  const ranked = lines
    .map((l) => ({ ...l, score: wordsOf(l.text).filter((w) => remaining.has(w)).length }))
    .filter((l) => l.score > 0)
    .map((l) => ({ ...l, tier: tier(l) }))
    .sort((a, b) => a.tier - b.tier || b.score - a.score);
  const lost: LostLine[] = [];
  for (const { file, line, text } of ranked) {
    const words = wordsOf(text).filter((w) => {
      const n = remaining.get(w) ?? 0;
      if (n === 0) return false;
      remaining.set(w, n - 1);
      return true;
    });
    if (words.length > 0) lost.push({ file, line, text, words });
  }
  return lost.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** Readable failure text: file:line, the missing words, the line. */
export function describeLost(lost: LostLine[], limit = 15): string {
  const shown = lost.slice(0, limit).map((l) => `${l.file}:${l.line}: missing ${l.words.map((w) => JSON.stringify(w)).join(' ')} — ${l.text.slice(0, 120)}`);
  const more = lost.length > limit ? [`… and ${lost.length - limit} more line(s)`] : [];
  return [`${lost.length} original line(s) lost words:`, ...shown, ...more].join('\n');
}

/** Every file of a memory directory as text, memdir's own state (.memdir/) left out. */
export function readDirTexts(dir: string): DirTexts {
  const out: DirTexts = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full).split(path.sep).join('/');
    if (!entry.isFile() || rel === '.memdir' || rel.startsWith('.memdir/')) continue;
    out[rel] = fs.readFileSync(full, 'utf8');
  }
  return out;
}
