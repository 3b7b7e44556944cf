import type * as ChronoEn from 'chrono-node/en';
import type * as ChronoZh from 'chrono-node/zh';
import { lazyRequire } from './lazy.js';

// Only the English and Chinese parsers, loaded on first use (all locales cost ~250 ms to load).
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

/**
 * Relative date expressions ("next Thursday", "yesterday", "in two weeks",
 * "上周", "下周四", "明天"…) and their absolute dates, anchored at `anchor`.
 * Expressions that already carry a year are left alone. English and Chinese
 * come from chrono-node; the Chinese week/month forms it lacks are added here.
 */
export function findRelativeDates(text: string, anchor: Date): RelativeDate[] {
  const results: RelativeDate[] = [];
  // chrono-node is thorough but slow; only lines with a relative word go through it.
  for (const { offset, chunk } of linesMatching(text, EN_RELATIVE)) {
    for (const r of en().casual.parse(chunk, anchor)) {
      const expression = tightest(r.text, r.start.date(), anchor);
      // "in 5 years" is a vague horizon in prose, not a date to pin down.
      if (!EN_RELATIVE.test(expression) || HAS_YEAR.test(expression) || /\byears?\b/i.test(expression)) continue;
      results.push({ index: offset + r.index, text: expression, replacement: render(r.start.date(), granularityOf(expression)) });
    }
  }
  if (/[\u4e00-\u9fff]/.test(text)) {
    for (const r of zh().hans.casual.parse(text, anchor)) {
      if (!ZH_RELATIVE.test(r.text) || HAS_YEAR.test(r.text)) continue;
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

/** `text` with every relative date replaced by its absolute form, and what was replaced. */
export function rewriteRelativeDates(text: string, anchor: Date): { text: string; rewrites: RelativeDate[] } {
  const rewrites = findRelativeDates(text, anchor);
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

/**
 * Search terms for the absolute dates in `text`, whatever their format:
 * "7 Jan 2024", "January 7, 2024", "2024-01-07", "07.01.2024" and
 * "2024年1月7日" all give `2024-01-07` (and the month, `2024-01`);
 * "January 2024" gives `2024-01`. Terms contain a hyphen, which no word term does.
 */
export function dateTerms(text: string): string[] {
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
