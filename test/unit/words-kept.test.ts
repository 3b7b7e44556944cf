import { describe, expect, test } from 'vitest';
import { checkWordsKept, describeLost, wordsOf } from '../helpers/words-kept.js';

const topic = (body: string) => `---\nname: Release\ndescription: How releases go\ntype: project\n---\n\n${body}\n`;

describe('the words-kept checker (independent "nothing lost" check for refactor)', () => {
  test('words are letter/digit runs in any script; Han and kana count per character; pointer targets are syntax', () => {
    expect(wordsOf('- [Deploy Rules](feedback_deploy.md) — v8.0重构: 주간 배포')).toEqual(['deploy', 'rules', 'v8', '0', '重', '构', '주간', '배포']);
    expect(wordsOf('ＡＰＩ キー')).toEqual(['api', 'キ', 'ー']);
  });

  test('a line moved from the index into a topic file loses nothing', () => {
    const before = { 'MEMORY.md': '## Release\nDeploys run on Fridays, never during the freeze.\n' };
    const after = {
      'MEMORY.md': '- [Release](project_release.md) — when deploys may run\n',
      'project_release.md': topic('## Release\nDeploys run on Fridays, never during the freeze.'),
    };
    expect(checkWordsKept(before, after).lost).toEqual([]);
  });

  test('a lost clause is reported with its file, line and the missing words', () => {
    const before = { 'MEMORY.md': '# Memory\n## Release\nDeploys run on Fridays, never during the freeze.\n' };
    const after = { 'MEMORY.md': '# Memory\n- [Release](project_release.md) — deploys\n', 'project_release.md': topic('Deploys run on Fridays.') };
    const { lost } = checkWordsKept(before, after);
    expect(lost).toEqual([{ file: 'MEMORY.md', line: 3, text: 'Deploys run on Fridays, never during the freeze.', words: ['never', 'during', 'the', 'freeze'] }]);
    expect(describeLost(lost)).toContain('MEMORY.md:3: missing "never" "during" "the" "freeze"');
  });

  test('a word lost inside a topic file is blamed there, not on the index line that moved out', () => {
    const before = { 'MEMORY.md': '- [Walk](project_walk.md) — resume the next day\n', 'project_walk.md': topic('Log at night or the next morning.') };
    const after = { 'MEMORY.md': '- [Walk](project_walk.md) — resume\n', 'project_walk.md': topic('Log at night or the morning.\n\nresume the next day') };
    expect(checkWordsKept(before, after).lost.map((l) => [l.file, l.words])).toEqual([['project_walk.md', ['next']]]);
  });

  test('a dropped heading is a loss', () => {
    const before = { 'MEMORY.md': '## Release process\n- [Freeze](project_freeze.md) — no merges during the freeze\n' };
    const after = { 'MEMORY.md': '- [Freeze](project_freeze.md) — no merges during the freeze\n' };
    expect(checkWordsKept(before, after).lost).toEqual([{ file: 'MEMORY.md', line: 1, text: '## Release process', words: ['release', 'process'] }]);
  });

  test('a repeated word must keep its count across distinct lines; an exact duplicate line may go', () => {
    const before = { 'MEMORY.md': 'Use pnpm.\nUse pnpm.\nNever use npm.\n' };
    expect(checkWordsKept(before, { 'MEMORY.md': 'Use pnpm.\nNever use npm.\n' }).lost).toEqual([]);
    const lost = checkWordsKept(before, { 'MEMORY.md': 'Use pnpm.\nNever npm.\n' }).lost;
    expect(lost.map((l) => [l.line, l.words])).toEqual([[3, ['use']]]);
  });

  test('a hook that repeats the description word for word may be shortened; its title words still count', () => {
    const before = {
      'MEMORY.md': '- [Regression suite](reference_suite.md) — Guard models via B-rep signatures; byte-comparing 3MF is a trap\n',
      'reference_suite.md': '---\nname: Regression suite\ndescription: Guard models via B-rep signatures; byte-comparing 3MF is a trap\ntype: reference\n---\n\nRun it.\n',
    };
    const shortened = { ...before, 'MEMORY.md': '- [Regression suite](reference_suite.md) — Guard models via B-rep signatures…\n' };
    expect(checkWordsKept(before, shortened).lost).toEqual([]);
    const untitled = { ...before, 'MEMORY.md': '- [Suite](reference_suite.md) — Guard models via B-rep signatures…\n' };
    expect(checkWordsKept(before, untitled).lost.map((l) => l.words)).toEqual([['regression']]);
  });

  test('renaming or re-targeting a pointer is pointer syntax, not a loss', () => {
    const before = { 'MEMORY.md': '- [Deploys](deploy-notes.md) — when to deploy\n' };
    const after = { 'MEMORY.md': '- [Deploys](project_deploys.md) — when to deploy\n' };
    expect(checkWordsKept(before, after).lost).toEqual([]);
  });

  test('a relative date rewritten to an ISO date is excused, one excuse per date gained', () => {
    const before = { 'MEMORY.md': 'The freeze starts next Thursday.\n上周决定不再使用缓存。\n' };
    const after = { 'project_freeze.md': topic('The freeze starts 2026-03-05.\n2026-02-19决定不再使用缓存。') };
    const result = checkWordsKept(before, after);
    expect(result.lost).toEqual([]);
    expect(result.excusedDates.map((d) => d.phrase)).toEqual(['next thursday', '上周']);
  });

  test('a date rewrite that keeps part of the phrase is excused for the part that went', () => {
    const before = { 'MEMORY.md': 'Fourth collaborator this week.\n' };
    const after = { 'project_people.md': topic('Fourth collaborator in the week of 2026-11-23.') };
    expect(checkWordsKept(before, after)).toEqual({ lost: [], excusedDates: [{ file: 'MEMORY.md', line: 1, phrase: 'this week' }] });
  });

  test('a relative date deleted without a date in its place is a loss', () => {
    const before = { 'MEMORY.md': 'The freeze starts next Thursday.\n' };
    const after = { 'project_freeze.md': topic('The freeze starts soon.') };
    expect(checkWordsKept(before, after).lost[0]?.words).toEqual(['next', 'thursday']);
  });

  test('"today" inside an identifier or code is not a date: rewriting it is a loss even when a date was added', () => {
    const before = { 'MEMORY.md': 'Day count: `day = today - start`; also today_date is set by cron.\n' };
    const after = { 'MEMORY.md': 'Day count: `day = 2026-03-05 - start`; also 2026-03-05_date is set by cron.\n' };
    const { lost, excusedDates } = checkWordsKept(before, after);
    expect(excusedDates).toEqual([]);
    expect(lost[0]?.words).toEqual(['today', 'today']);
  });

  test('CJK text loses per character; Korean per word', () => {
    const before = { 'MEMORY.md': '决定不再使用Redis缓存\n배포는 금요일에만 한다\n' };
    const after = { 'MEMORY.md': '决定不再使用Redis\n배포는 한다\n' };
    expect(checkWordsKept(before, after).lost.map((l) => l.words)).toEqual([['缓', '存'], ['금요일에만']]);
  });

  test('case, width and CRLF do not matter', () => {
    const before = { 'MEMORY.md': '## Build\r\nRun TESTS before ｐｕｓｈ\r\n' };
    const after = { 'project_build.md': topic('## build\nrun tests before push') };
    expect(checkWordsKept(before, after).lost).toEqual([]);
  });
});
