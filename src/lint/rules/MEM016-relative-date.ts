import { RULE_OPTIONS } from '../../config/rule-catalog.js';
import { anchoredRelativeDates, calendarDay, parseCalendarDay } from '../../core/dates.js';
import { position, type TopicSource } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

/** A routine ("daily coach mode": ask what he did yesterday) speaks of every day, not of a date. */
function isRoutine(topic: TopicSource): boolean {
  return /\b(?:daily|routine|every day|habits?)\b|每天|每日|日常/i.test(`${topic.path} ${topic.fields.name ?? ''} ${topic.fields.description ?? ''}`);
}

export const relativeDate: Rule = {
  id: 'MEM016',
  name: 'relative-date',
  description:
    'Project memories use absolute dates: "next Thursday" means nothing a month later. Only prose counts (not code, quotations, file names, identifiers, formulas; "today" meaning currently is no date). The fix rewrites it when the date has a trustworthy anchor: a date in its line or section, `modified`/`updated`/`date` frontmatter, a date in the file name, `--anchor-date`, or the last commit of a clean tracked file; with only the file time it is reported and left as written.',
  severity: 'warning',
  fixable: true,
  tags: ['content', 'dates'],
  needs: ['commitTimes'],
  options: RULE_OPTIONS.MEM016,
  examples: {
    valid: [
      { files: { 'project_freeze.md': '---\nname: Freeze\ndescription: Merge freeze on main for the mobile release\ntype: project\nmodified: 2026-02-26\n---\nFreeze starts 2026-03-05.\n' } },
      {
        files: {
          'project_timeline.md':
            '---\nname: Timeline\ndescription: The timeline page of the dashboard and its data source\ntype: project\n---\nThe page lives in `today-timeline.tsx`; our parser today reads the feed as JSON.\n',
        },
      },
    ],
    invalid: [
      { files: { 'project_freeze.md': '---\nname: Freeze\ndescription: Merge freeze on main for the mobile release\ntype: project\nmodified: 2026-02-26\n---\nFreeze starts next Thursday.\n' } },
      { files: { 'project_freeze.md': '---\nname: 冻结\ndescription: 移动端发布期间主干合并冻结\ntype: project\nmodified: 2026-02-26\n---\n下周四开始冻结，明天通知团队。\n' } },
    ],
  },
  check(model, report, options) {
    const anchorDate = parseCalendarDay(options.anchorDate as string);
    for (const topic of model.topics) {
      if (topic.fields.type !== 'project' || isRoutine(topic)) continue;
      const bodyStart = topic.text.length - topic.topic.body.length;
      const facts = { anchorDate, frontmatter: topic.topic.frontmatter?.data, fileName: topic.path, commitTimeMs: topic.commitTimeMs, mtimeMs: topic.mtimeMs };
      for (const found of anchoredRelativeDates(topic.topic.body, facts)) {
        const start = bodyStart + found.index;
        const where = { file: topic.path, ...position(topic, start) };
        if (!found.anchor) {
          // The mtime of a checkout or a copy is no evidence of when the text was written.
          report({
            ...where,
            message: `"${found.text}" is relative; write the date it meant (only the file time ${calendarDay(new Date(topic.mtimeMs))} is known: add \`modified:\` or run lint --fix --anchor-date YYYY-MM-DD)`,
          });
          continue;
        }
        report({
          ...where,
          message: `"${found.text}" is relative; write ${found.replacement} (anchored at ${found.anchor.source})`,
          fix: { file: topic.path, edits: [{ start, end: start + found.text.length, text: found.replacement }] },
        });
      }
    }
  },
};
