import { describe, expect, test } from 'vitest';
import { dateTerms, findRelativeDates } from '../../src/core/dates.js';

// Thursday 2026-02-26, local noon.
const anchor = new Date(2026, 1, 26, 12);
const rewrite = (text: string) => findRelativeDates(text, anchor).map((d) => [d.text, d.replacement]);

describe('English', () => {
  test.each([
    ['Merge freeze starts next Thursday.', [['next Thursday', '2026-03-05']]],
    ['We shipped it yesterday.', [['yesterday', '2026-02-25']]],
    ['Due tomorrow', [['tomorrow', '2026-02-27']]],
    ['Demo in two weeks', [['in two weeks', '2026-03-12']]],
    ['Broke 3 days ago', [['3 days ago', '2026-02-23']]],
    ['Planned last week', [['last week', 'week of 2026-02-16']]],
    ['Launch next month', [['next month', '2026-03']]],
  ])('%s', (text, expected) => expect(rewrite(text)).toEqual(expected));

  test('absolute dates and plain words are left alone', () => {
    expect(rewrite('Freeze on 2026-03-05; March 5, 2026 too. This is fine. Next steps: none.')).toEqual([]);
  });
});

describe('Chinese', () => {
  test.each([
    ['昨天我们发布了', [['昨天', '2026-02-25']]],
    ['明天开会', [['明天', '2026-02-27']]],
    ['下周四合并冻结', [['下周四', '2026-03-05']]],
    ['上周上线了', [['上周', 'week of 2026-02-16']]],
    ['下个月发布', [['下个月', '2026-03']]],
    ['两周后演示', [['两周后', '2026-03-12']]],
    ['3天前出错', [['3天前', '2026-02-23']]],
    ['这周五上线', [['这周五', '2026-02-27']]],
    // A weekday alone may mean every such day, as "on Tuesday" may in English: left as written.
    ['周二才能部署', []],
    ['每周二部署', []],
    ['我们星期三发布', []],
  ])('%s', (text, expected) => expect(rewrite(text)).toEqual(expected));

  test('mixed text keeps each expression once, in order', () => {
    expect(rewrite('Freeze starts next Thursday (下周四); retro was 昨天.')).toEqual([
      ['next Thursday', '2026-03-05'],
      ['下周四', '2026-03-05'],
      ['昨天', '2026-02-25'],
    ]);
  });
});

describe('precision', () => {
  test('a trailing word chrono swallows is not part of the expression', () => {
    expect(rewrite('We ship it next Thursday they said')).toEqual([['next Thursday', '2026-03-05']]);
  });
  test('"end of" stays with the date it qualifies', () => {
    expect(rewrite('ship by the end of next month, review end of next week')).toEqual([
      ['end of next month', 'end of 2026-03'],
      ['end of next week', 'end of the week of 2026-03-02'],
    ]);
  });
  test('an estimate is left alone', () => {
    expect(rewrite('in a week or two we migrate; in two days or so it ships')).toEqual([]);
  });
  test('year horizons in prose are left alone', () => {
    expect(rewrite('in 5 years they will need an audit; next year too')).toEqual([]);
  });
});

test('odd whitespace around expressions terminates', () => {
  expect(rewrite('Freeze starts next  Thursday \n\nthen tomorrow  ')).toEqual([
    ['next  Thursday', '2026-03-05'],
    ['tomorrow', '2026-02-27'],
  ]);
});

describe('dateTerms: one search term per absolute date, whatever its format', () => {
  test.each([
    ['What did Kate cook on 29 Dec 2023?', ['2023-12', '2023-12-29']],
    ['meeting on the 3rd of March, 2025', ['2025-03', '2025-03-03']],
    ['January 7, 2024', ['2024-01', '2024-01-07']],
    ['released 2024-01-07', ['2024-01', '2024-01-07']],
    ['due 07.01.2024', ['2024-01', '2024-01-07']],
    ['2024年04月01日 周一', ['2024-04', '2024-04-01']],
    ['back in January 2024', ['2024-01']],
  ])('%s', (text, terms) => {
    expect(dateTerms(text)).toEqual(terms);
  });
  test('no date, or an impossible one: nothing', () => {
    expect(dateTerms('spring of 2024, version 1.2.3, 2024-13-01')).toEqual([]);
  });
});
