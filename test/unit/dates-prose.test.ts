import { describe, expect, test } from 'vitest';
import { anchoredRelativeDates, chooseAnchor, findRelativeDates, rewriteRelativeDates } from '../../src/core/dates.js';

// Monday 2026-03-02, local noon.
const monday = new Date(2026, 2, 2, 12);
const found = (text: string) => findRelativeDates(text, monday).map((d) => [d.text, d.replacement]);
const mtimeMs = new Date(2026, 10, 30, 12).getTime();
const anchored = (text: string, facts = {}) => anchoredRelativeDates(text, { mtimeMs, ...facts }).map((d) => [d.text, d.replacement, d.anchor?.source]);

test('"next Thursday" written on a Monday is that week\'s Thursday (docs/architecture.md#memory-types)', () => {
  expect(found('Merge freeze starts next Thursday.')).toEqual([['next Thursday', '2026-03-05']]);
  expect(found('Retro next Monday.')).toEqual([['next Monday', '2026-03-09']]);
});

test('"this week" is the anchor\'s week, Monday to Sunday (chrono-node starts it on the Sunday before)', () => {
  expect(findRelativeDates('Shipped this week; more next week.', new Date(2026, 2, 24, 12)).map((d) => d.replacement)).toEqual(['week of 2026-03-23', 'week of 2026-03-30']);
});

describe('only prose holds dates', () => {
  test.each([
    ['a file name', 'The view lives in (today-timeline.tsx); see src/today/index.ts.'],
    ['a UI label', 'Hero buttons: CTA·today and CTA·tomorrow.'],
    ['a formula', 'days_left: today = today_date − start_date'],
    ['an identifier', 'Call getTomorrow() or use the today_count column.'],
    ['a code span', 'Run `memdir lint --since yesterday` first.'],
    ['fenced code', 'Example:\n```\nschedule("tomorrow")\n```\n'],
    ['a URL', 'See https://example.com/news/today and [the board](https://x.io/next-week).'],
    ['a quoted e-mail', 'Their reply:\n> Thanks for applying. Please re-apply in 90 days.\n'],
    ['a quotation', 'The form says "re-apply in 90 days" at the bottom.'],
    ['an HTML comment', '<!-- update this tomorrow -->\nStable text.'],
    ['a horizon', 'The contract ends this quarter.'],
    ['"today" meaning currently', 'Our parser today reads JSON. It works today. As of today we use pnpm. It fails today: the unit is missing.'],
    ['times of day and spans of minutes', 'The video took 5 min to render; 7/9 上午跟进, 早上9:57 提醒.'],
    ['a day relative to an event', 'The bug came back the next day.'],
    ['a duration', 'Six collaborators converged in one week; the port was done in two days.'],
  ])('not in %s', (_, text) => expect(found(text)).toEqual([]));

  test('"today" telling of an event is a date', () => {
    expect(found('She offered to call today or tomorrow.').map(([text]) => text)).toEqual(['today', 'tomorrow']);
  });

  test('prose around them still counts', () => {
    expect(found('The freeze starts today; `today-timeline.tsx` ships tomorrow.')).toEqual([
      ['today', '2026-03-02'],
      ['tomorrow', '2026-03-03'],
    ]);
  });
});

describe('anchors', () => {
  test('the mtime alone is no anchor', () => {
    expect(chooseAnchor({ mtimeMs })).toBeUndefined();
    expect(anchored('Ship tomorrow.')).toEqual([['tomorrow', '2026-12-01', undefined]]);
    expect(rewriteRelativeDates('Ship tomorrow.', { mtimeMs }).text).toBe('Ship tomorrow.');
  });

  test('frontmatter modified/updated/date, as a YAML date or a string', () => {
    expect(chooseAnchor({ frontmatter: { modified: new Date(Date.UTC(2026, 2, 4)) } })?.source).toBe('modified: 2026-03-04');
    expect(chooseAnchor({ frontmatter: { updated: '2026-03-05' } })?.source).toBe('updated: 2026-03-05');
    expect(chooseAnchor({ frontmatter: { date: '2026-03-06T10:00:00Z' } })?.source).toBe('date: 2026-03-06');
  });

  test('a date in the line wins over the file-wide facts', () => {
    expect(anchored('- 2026-03-04: deployed; follow-up tomorrow.', { frontmatter: { modified: '2026-01-01' } })).toEqual([['tomorrow', '2026-03-05', 'the date in its line, 2026-03-04']]);
  });

  test('a deadline in the line is not when it was written', () => {
    expect(anchored('Due 2026-06-01; we start next week.')).toEqual([['next week', 'week of 2026-12-07', undefined]]);
  });

  test('a section date: an "updated" marker or a dated heading', () => {
    expect(anchored('# 计划\n> 最后更新：2026-03-04\n\n明天发布。\n')).toEqual([['明天', '2026-03-05', '"最后更新：2026-03-04"']]);
    expect(anchored('# Log\n## 2026-03-10 session\nShip tomorrow.\n## Notes\nShip tomorrow.\n')).toEqual([
      ['tomorrow', '2026-03-11', "its section's date, 2026-03-10"],
      ['tomorrow', '2026-12-01', undefined],
    ]);
    expect(anchored('Status as of 2026-05-06.\n\nThe audit is next week.')).toEqual([['next week', 'week of 2026-05-11', '"Status as of 2026-05-06"']]);
  });

  test('a date in the file name, then --anchor-date, then the last commit', () => {
    expect(chooseAnchor({ fileName: 'sub/project_session_2026-03-15.md', anchorDate: monday, mtimeMs })?.source).toBe("the file name's date, 2026-03-15");
    expect(chooseAnchor({ anchorDate: monday, commitTimeMs: mtimeMs })?.source).toBe('--anchor-date 2026-03-02');
    expect(chooseAnchor({ commitTimeMs: mtimeMs, mtimeMs })?.source).toBe('last commit 2026-11-30');
  });

  test('rewrites only what has an anchor', () => {
    const text = '## 2026-03-10\nShip tomorrow.\n## Later\nShip tomorrow.\n';
    expect(rewriteRelativeDates(text, { mtimeMs }).text).toBe('## 2026-03-10\nShip 2026-03-11.\n## Later\nShip tomorrow.\n');
  });
});
