import type * as ChronoEn from 'chrono-node/en';
import type * as ChronoZh from 'chrono-node/zh';
import { lazyRequire } from './lazy.js';
import { proseOnly } from './prose.js';

// Only the English and Chinese parsers, loaded on first use (all locales are slow to load).
const en = () => lazyRequire<typeof ChronoEn>('chrono-node/en');
const zh = () => lazyRequire<typeof ChronoZh>('chrono-node/zh');

/** A relative date expression found in text, with its absolute rewrite. */
export interface RelativeDate {
  /** Offset in the text (UTF-16 units) and the expression as written. */
  index: number;
  text: string;
  /** The absolute form that replaces it: `2026-03-05`, `week of 2026-02-16`, `2026-03`. */
  replacement: string;
}

const EN_RELATIVE = /\b(?:today|tonight|tomorrow|yesterday|next|last|this|coming|ago|in\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|\d+)\s|day after|day before)\b/i;
const ZH_BARE_WEEKDAY = /^(?:周|星期|礼拜|週)[一二三四五六日天]$/;
const ZH_RELATIVE = /[今明昨前后後上下本这這]|周[一二三四五六日天]|星期|礼拜/;
const HAS_YEAR = /\b\d{4}\b|\d{4}年/;

const ZH_NUMBERS: Record<string, number> = { 一: 1, 两: 2, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };

type Granularity = 'day' | 'week' | 'month';

/** The local calendar day of a date, YYYY-MM-DD: labels and rewrites agree on it, also near midnight. */
export function calendarDay(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** `2026-03-02` → that day at local noon; undefined when it is not a real calendar day. */
export function parseCalendarDay(text: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m ? localDay(+m[1]!, +m[2]!, +m[3]!) : undefined;
}

function render(date: Date, granularity: Granularity): string {
  if (granularity === 'month') return calendarDay(date).slice(0, 7);
  if (granularity === 'week') {
    const monday = new Date(date);
    monday.setDate(date.getDate() - ((date.getDay() + 6) % 7));
    return `week of ${calendarDay(monday)}`;
  }
  return calendarDay(date);
}

function granularityOf(text: string): Granularity {
  const weekday = /monday|tuesday|wednesday|thursday|friday|saturday|sunday|周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]/i;
  if (/\b(?:last|next|this|coming)\s+week\b|^[上下本这這](?:个|個)?(?:周|星期|礼拜)$/i.test(text) && !weekday.test(text)) return 'week';
  if (/\b(?:last|next|this|coming)\s+month\b|^[上下本这這](?:个|個)?月$/i.test(text)) return 'month';
  return 'day';
}

function shifted(anchor: Date, days: number, months = 0): Date {
  const date = new Date(anchor);
  date.setMonth(date.getMonth() + months);
  date.setDate(date.getDate() + days);
  return date;
}

/** Chinese week/month expressions chrono-node does not parse (上周, 下个月, 两周后…). */
function chineseExtras(text: string, anchor: Date): RelativeDate[] {
  const found: RelativeDate[] = [];
  const unitRe = /([上下本这這])(个|個)?(周|星期|礼拜|月)(?![一二三四五六日天\d])/g;
  for (const m of text.matchAll(unitRe)) {
    const direction = m[1] === '上' ? -1 : m[1] === '下' ? 1 : 0;
    const isMonth = m[3] === '月';
    const date = isMonth ? shifted(anchor, 0, direction) : shifted(anchor, 7 * direction);
    found.push({ index: m.index, text: m[0], replacement: render(date, isMonth ? 'month' : 'week') });
  }
  const offsetRe = /([两二三四五六七八九十一]|\d+)(?:个|個)?(天|周|星期|礼拜|月)(之?后|之?後|以?前)/g;
  for (const m of text.matchAll(offsetRe)) {
    const n = ZH_NUMBERS[m[1]!] ?? Number(m[1]);
    const sign = m[3]!.includes('前') ? -1 : 1;
    const date = m[2] === '月' ? shifted(anchor, 0, sign * n) : shifted(anchor, sign * n * (m[2] === '天' ? 1 : 7));
    found.push({ index: m.index, text: m[0], replacement: render(date, 'day') });
  }
  return found;
}

/**
 * "today" meaning *currently* is no date: "as of today", "works today", "it fails today",
 * "our parser today handles…". It is a date when its sentence tells of an event: a past or
 * future verb ("shipped today", "will call today") or an event word ("the freeze starts today").
 */
function meansCurrently(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 24), start);
  if (/\b(?:as of|until|till|up to|even|still|exists?|to this)\s+$/i.test(before)) return true;
  const sentenceStart = Math.max(text.lastIndexOf('. ', start), text.lastIndexOf('\n', start), text.lastIndexOf('; ', start)) + 1;
  const ends = [text.indexOf('. ', end), text.indexOf('\n', end), text.indexOf('; ', end)].filter((i) => i !== -1);
  const sentence = text.slice(sentenceStart, ends.length > 0 ? Math.min(...ends) : text.length);
  const event =
    /\b(?:\w{3,}ed|was|were|did|had|went|came|made|met|sent|wrote|spoke|told|said|began|broke|ran|got|took|found|shipped|will|won't|'ll|going to|plan(?:s|ned)?|scheduled|due|deadline|meeting|call|release|launch|deploy|freeze|demo|interview|session|starts?|ends?|begins?|opens?|closes?|ships?|lands?|expires?)\b/i;
  return !event.test(sentence.replace(/\btoday\b/gi, ''));
}

/** Wall-clock times and parts of a day (上午, 早上 9:57, this hour) are not dates. */
const TIME_OF_DAY = /^(?:上午|下午|早上|晚上|中午|凌晨|傍晚|今早|今晚)|\b(?:hours?|minutes?|mins?|seconds?|secs?)\b/i;
/** Relative to another event, not to when it was written: "the next day", "a day after". */
const EVENT_RELATIVE = /^(?:next|following|previous) day$|^in\s+a day$/i;

/** Lines of `text` that match `pattern`, with their offsets (chrono-node is fastest on short inputs). */
function linesMatching(text: string, pattern: RegExp): Array<{ offset: number; chunk: string }> {
  if (!pattern.test(text)) return [];
  const out: Array<{ offset: number; chunk: string }> = [];
  let offset = 0;
  for (const chunk of text.split(/(?<=\n)/)) {
    if (pattern.test(chunk)) out.push({ offset, chunk });
    offset += chunk.length;
  }
  return out;
}

/**
 * chrono-node sometimes swallows a trailing word ("in 5 years they");
 * drop trailing words while the shorter text still means the same day.
 */
function tightest(text: string, date: Date, anchor: Date): string {
  let current = text;
  while (/\s/.test(current)) {
    const shorter = current.replace(/\s+\S+$/, '');
    if (shorter === current) break;
    const again = en().casual.parse(shorter, anchor)[0];
    if (!again || again.text !== shorter || calendarDay(again.start.date()) !== calendarDay(date)) break;
    current = shorter;
  }
  return current;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * "next Thursday" is the first Thursday after the anchor (docs/architecture.md#memory-types: written on Monday
 * 2026-03-02 it is 2026-03-05); chrono-node reads it as the Thursday of next week.
 */
function nextWeekday(expression: string, anchor: Date): Date | undefined {
  const day = /^next\s+(\w+)$/i.exec(expression)?.[1]?.toLowerCase();
  const target = day ? WEEKDAYS.indexOf(day) : -1;
  if (target === -1) return undefined;
  return shifted(anchor, ((target - anchor.getDay() + 6) % 7) + 1);
}

/** Cheap test before the prose is worked out. */
function mayHoldRelativeDates(text: string): boolean {
  return EN_RELATIVE.test(text) || /[\u4e00-\u9fff]/.test(text);
}

/** "this week" is the anchor's week (chrono-node starts it on the Sunday before), "last/next week" the one before/after. */
function weekOf(expression: string, anchor: Date): Date | undefined {
  const which = /^(last|this|coming|next)\s+week$/i.exec(expression)?.[1]?.toLowerCase();
  return which === undefined ? undefined : shifted(anchor, which === 'last' ? -7 : which === 'next' ? 7 : 0);
}

/** Relative dates in `text` (already reduced to prose), resolved against `anchor`. */
function detect(text: string, anchor: Date): RelativeDate[] {
  const results: RelativeDate[] = [];
  // chrono-node is thorough but slow; only lines with a relative word go through it.
  for (const { offset, chunk } of linesMatching(text, EN_RELATIVE)) {
    for (const r of en().casual.parse(chunk, anchor)) {
      const expression = tightest(r.text, r.start.date(), anchor);
      // "in 5 years", "this quarter": horizons in prose, not dates to pin down.
      if (!EN_RELATIVE.test(expression) || HAS_YEAR.test(expression) || /\b(?:years?|quarters?)\b/i.test(expression)) continue;
      // Spans across masked text ("in ␣␣␣ a day"), times of day and event-relative days are no dates.
      if (/\s{3,}/.test(expression) || TIME_OF_DAY.test(expression) || EVENT_RELATIVE.test(expression)) continue;
      // "converged in one week", "done in two days": how long it took, not when.
      if (/^in\s/i.test(expression) && /\b(?:\w+ed|done|did|built|made|took|ran)\s+$/i.test(chunk.slice(Math.max(0, r.index - 20), r.index))) continue;
      if (/^today$/i.test(expression) && meansCurrently(chunk, r.index, r.index + expression.length)) continue;
      // "in a week or two": an estimate, not a day.
      if (/^\s+or\s+(?:two|three|so|more|less)\b/i.test(chunk.slice(r.index + expression.length))) continue;
      const date = nextWeekday(expression, anchor) ?? weekOf(expression, anchor) ?? r.start.date();
      const rendered = render(date, granularityOf(expression));
      // "end of next week" keeps its "end of": the date alone would say the whole week.
      const edge = /^(?:end|beginning|start|middle) of\s+/i.exec(expression)?.[0] ?? '';
      const replacement = edge ? `${edge}${rendered.startsWith('week of') ? `the ${rendered}` : rendered}` : rendered;
      results.push({ index: offset + r.index, text: expression, replacement });
    }
  }
  if (/[\u4e00-\u9fff]/.test(text)) {
    for (const r of zh().hans.casual.parse(text, anchor)) {
      if (!ZH_RELATIVE.test(r.text.replace(/上午|早上|晚上/g, '')) || HAS_YEAR.test(r.text) || TIME_OF_DAY.test(r.text)) continue;
      // A weekday alone, as "on Tuesday" in English, may be every such day ("周二才能部署", "每周二"): left as written.
      if (ZH_BARE_WEEKDAY.test(r.text) || text[r.index - 1] === '每') continue;
      results.push({ index: r.index, text: r.text, replacement: render(r.start.date(), 'day') });
    }
    results.push(...chineseExtras(text, anchor));
  }
  // Keep the longest expression where matches overlap, in text order.
  results.sort((a, b) => a.index - b.index || b.text.length - a.text.length);
  const kept: RelativeDate[] = [];
  for (const r of results) {
    const last = kept[kept.length - 1];
    if (last && r.index < last.index + last.text.length) continue;
    kept.push(r);
  }
  return kept;
}

/**
 * Relative date expressions in the prose of `text` ("next Thursday", "yesterday", "in two
 * weeks", "上周", "下周四", "明天"…) and their absolute dates, all anchored at `anchor`.
 * Code, quotations, block quotes, URLs, file names, identifiers and formulas are not prose;
 * expressions that already carry a year are left alone.
 */
export function findRelativeDates(text: string, anchor: Date): RelativeDate[] {
  return mayHoldRelativeDates(text) ? detect(proseOnly(text), anchor) : [];
}

/** A relative date with the anchor it was resolved against; no anchor: only the mtime was known. */
export interface AnchoredRelativeDate extends RelativeDate {
  anchor: Anchor | undefined;
}

/**
 * Relative dates in the prose of `text`, each resolved against the most trustworthy anchor
 * for its place: a date in its line, its section's date, then the file-wide facts
 * (`chooseAnchor`). Without any, the mtime resolves it for the report and `anchor` is undefined:
 * such a date is reported, never rewritten.
 */
export function anchoredRelativeDates(text: string, facts: AnchorFacts): AnchoredRelativeDate[] {
  if (!mayHoldRelativeDates(text)) return [];
  const prose = proseOnly(text);
  const out: AnchoredRelativeDate[] = [];
  const sections = sectionAnchors(text);
  const fallback = new Date(facts.mtimeMs ?? Date.now());
  let offset = 0;
  let lineNumber = 0;
  for (const line of prose.split(/(?<=\n)/)) {
    // The text's own section date first; the caller's (the section the text was moved from) else.
    const base = { ...facts, sectionDate: sections[lineNumber] ?? facts.sectionDate };
    const provisional = chooseAnchor(base)?.date ?? fallback;
    const found = detect(line, provisional);
    const original = text.slice(offset, offset + line.length);
    const written = found.length > 0 ? writtenDates(original) : [];
    for (const span of found) {
      const anchor = chooseAnchor({ ...base, lineDate: lineAnchor(written, span.index, original) });
      const resolved = anchor && anchor.date.getTime() !== provisional.getTime() ? detect(line, anchor.date).find((r) => r.index === span.index) : undefined;
      out.push({ ...(resolved ?? span), index: offset + span.index, anchor });
    }
    offset += line.length;
    lineNumber++;
  }
  return out;
}

/** `text` with every relative date that has a trustworthy anchor replaced by its absolute form, and what was replaced. */
export function rewriteRelativeDates(text: string, anchor: Date | AnchorFacts): { text: string; rewrites: AnchoredRelativeDate[] } {
  // A Date is the caller's anchor for the whole text; facts let each place find its own,
  // and only dates with a trustworthy anchor are rewritten.
  const rewrites =
    anchor instanceof Date
      ? findRelativeDates(text, anchor).map((found) => ({ ...found, anchor: { date: anchor, source: calendarDay(anchor) } }))
      : anchoredRelativeDates(text, anchor).filter((found) => found.anchor);
  let out = '';
  let at = 0;
  for (const found of rewrites) {
    out += text.slice(at, found.index) + found.replacement;
    at = found.index + found.text.length;
  }
  return { text: out + text.slice(at), rewrites };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
/** Absolute dates as people write them; each alternative names its parts. */
const ABSOLUTE_DATE = new RegExp(
  [
    '\\b(?<isoY>(?:19|20)\\d\\d)[-/.](?<isoM>\\d\\d?)(?:[-/.](?<isoD>\\d\\d?))?\\b',
    `\\b(?<dmyD>\\d\\d?)(?:st|nd|rd|th)?(?: of)? ${MONTH.replace('(', '(?<dmyM>')},? (?<dmyY>(?:19|20)\\d\\d)\\b`,
    `\\b${MONTH.replace('(', '(?<mdyM>')} (?:(?<mdyD>\\d\\d?)(?:st|nd|rd|th)?,? )?(?<mdyY>(?:19|20)\\d\\d)\\b`,
    '\\b(?<eurD>\\d\\d?)\\.(?<eurM>\\d\\d?)\\.(?<eurY>(?:19|20)\\d\\d)\\b',
    '(?<zhY>\\d{4})年(?<zhM>\\d{1,2})月(?:(?<zhD>\\d{1,2})日)?',
  ].join('|'),
  'gi',
);

/** Necessary for ABSOLUTE_DATE to match: each of its forms holds one of these. */
const MAY_HOLD_YEAR = /(?:19|20)\d\d|\d{4}年/;

/**
 * Search terms for the absolute dates in `text`, whatever their format:
 * "7 Jan 2024", "January 7, 2024", "2024-01-07", "07.01.2024" and
 * "2024年1月7日" all give `2024-01-07` (and the month, `2024-01`);
 * "January 2024" gives `2024-01`. Terms contain a hyphen, which no word term does.
 */
export function dateTerms(text: string): string[] {
  // Every form holds a year (19xx or 20xx, or four digits before 年); most texts have none, the large
  // pattern is slow to run, and its first use compiles it (a cost on every prompt hook).
  if (!MAY_HOLD_YEAR.test(text)) return [];
  const terms: string[] = [];
  for (const match of text.matchAll(ABSOLUTE_DATE)) {
    const g = match.groups!;
    const year = g.isoY ?? g.dmyY ?? g.mdyY ?? g.eurY ?? g.zhY;
    const monthName = g.dmyM ?? g.mdyM;
    const month = monthName ? MONTHS.indexOf(monthName.slice(0, 3).toLowerCase()) + 1 : Number(g.isoM ?? g.eurM ?? g.zhM);
    const day = Number(g.isoD ?? g.dmyD ?? g.mdyD ?? g.eurD ?? g.zhD ?? 0);
    if (month < 1 || month > 12 || day > 31) continue;
    const yearMonth = `${year}-${String(month).padStart(2, '0')}`;
    terms.push(yearMonth);
    if (day > 0) terms.push(`${yearMonth}-${String(day).padStart(2, '0')}`);
  }
  return terms;
}

/** A date written in the text itself, usable as an anchor for the relative dates near it. */
interface WrittenDate {
  index: number;
  date: Date;
  text: string;
}

/** Where a relative date's absolute form comes from. */
export interface Anchor {
  date: Date;
  /** Said in reports: `modified: 2026-03-04`, `"as of 2026-05-06" (line 12)`, `--anchor-date 2026-03-02`. */
  source: string;
}

/**
 * What is known about when a text was written. Only some of it is trustworthy:
 * an mtime is the checkout's or the copy's time, often months after the text.
 */
export interface AnchorFacts {
  /** `--anchor-date`: the user says so. */
  anchorDate?: Date;
  /** A date in the same line or sentence as the expression. */
  lineDate?: Anchor;
  /** A dated heading or an "updated/as of" marker governing the expression's section. */
  sectionDate?: Anchor;
  /** Frontmatter data: `modified`, `updated` or `date`. */
  frontmatter?: Record<string, unknown>;
  /** A date in the file's name (`project_session_2026-03-15.md`). */
  fileName?: string;
  /** Last commit of the file when it is tracked and unmodified. */
  commitTimeMs?: number;
  /** The file's mtime: enough to report a relative date, never to rewrite it. */
  mtimeMs?: number;
}

const DATE_PATTERN = /(?<!\d)((?:19|20)\d{2})([-/.])(\d{1,2})\2(\d{1,2})(?!\d)|((?:19|20)\d{2})年(\d{1,2})月(\d{1,2})日/g;

/** Local noon of a calendar day: rewrites land on the same day in every time zone. */
function localDay(year: number, month: number, day: number): Date | undefined {
  const date = new Date(year, month - 1, day, 12);
  return date.getMonth() === month - 1 && date.getDate() === day ? date : undefined;
}

function writtenDates(text: string): WrittenDate[] {
  const out: WrittenDate[] = [];
  for (const m of text.matchAll(DATE_PATTERN)) {
    const date = m[1] ? localDay(+m[1], +m[3]!, +m[4]!) : localDay(+m[5]!, +m[6]!, +m[7]!);
    if (date) out.push({ index: m.index, date, text: m[0] });
  }
  return out;
}

/** A date announcing a deadline or a bound ("due 2026-06-01") is not when the line was written. */
const BOUND_BEFORE = /(?:\b(?:due|deadline|by|until|till|before|after|from|expires?|expiry|through|to)\b|截止|到|至)\W*$/i;

/** The date written nearest before `index` in the same line (else the nearest after it), unless it is a bound. */
function lineAnchor(written: WrittenDate[], index: number, line: string): Anchor | undefined {
  const candidates = written.filter((w) => !BOUND_BEFORE.test(line.slice(Math.max(0, w.index - 12), w.index)));
  const before = candidates.filter((w) => w.index < index).pop();
  const chosen = before ?? candidates.find((w) => w.index > index);
  return chosen && { date: chosen.date, source: `the date in its line, ${calendarDay(chosen.date)}` };
}

const UPDATE_MARKER = /(?:\b(?:last\s+updated|updated|as\s+of|dated?|written|status)\b|最后更新|更新(?:于|日期|时间)?|日期|截至)\W{0,4}$/i;

/**
 * The section date governing each line: a date in a heading covers its section; an
 * "updated/as of/最后更新" date covers the rest of the section it is written in (and its
 * subsections; before any heading: the whole file).
 */
export function sectionAnchors(text: string): Array<Anchor | undefined> {
  const stack: Array<{ level: number; anchor: Anchor | undefined }> = [{ level: 0, anchor: undefined }];
  const out: Array<Anchor | undefined> = [];
  for (const line of text.split('\n')) {
    const heading = /^(#{1,6})\s/.exec(line);
    const dates = /\d{4}/.test(line) ? writtenDates(line) : [];
    if (heading) {
      while (stack.length > 1 && stack[stack.length - 1]!.level >= heading[1]!.length) stack.pop();
      const date = dates[0]?.date;
      stack.push({ level: heading[1]!.length, anchor: date && { date, source: `its section's date, ${calendarDay(date)}` } });
    } else {
      const marked = dates.find((w) => UPDATE_MARKER.test(line.slice(Math.max(0, w.index - 20), w.index)));
      if (marked) {
        const label = line.slice(Math.max(0, marked.index - 20), marked.index).replace(/^[^\p{L}]*/u, '');
        stack[stack.length - 1]!.anchor = { date: marked.date, source: `"${label}${marked.text}"` };
      }
    }
    out.push(stack.findLast((s) => s.anchor)?.anchor);
  }
  return out;
}

function frontmatterDate(value: unknown): Date | undefined {
  // YAML dates are UTC midnight; use the same calendar day locally.
  if (value instanceof Date && !Number.isNaN(value.getTime())) return localDay(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate());
  return typeof value === 'string' ? writtenDates(value)[0]?.date : undefined;
}

/**
 * The trustworthy anchor for a relative date, most specific first: a date in its line, its
 * section's date, the `modified`/`updated`/`date` frontmatter, a date in the file's name,
 * `--anchor-date`, the last commit of a clean tracked file. The mtime alone is no anchor
 * (a checkout or a copy resets it): undefined.
 */
export function chooseAnchor(facts: AnchorFacts): Anchor | undefined {
  if (facts.lineDate) return facts.lineDate;
  if (facts.sectionDate) return facts.sectionDate;
  for (const key of ['modified', 'updated', 'date']) {
    const date = frontmatterDate(facts.frontmatter?.[key]);
    if (date) return { date, source: `${key}: ${calendarDay(date)}` };
  }
  const named = facts.fileName ? writtenDates(facts.fileName.replace(/^.*\//, ''))[0] : undefined;
  if (named) return { date: named.date, source: `the file name's date, ${calendarDay(named.date)}` };
  if (facts.anchorDate) return { date: facts.anchorDate, source: `--anchor-date ${calendarDay(facts.anchorDate)}` };
  if (facts.commitTimeMs !== undefined) {
    const date = new Date(facts.commitTimeMs);
    return { date, source: `last commit ${calendarDay(date)}` };
  }
  return undefined;
}
