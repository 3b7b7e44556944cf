import { findRelativeDates } from '../../core/dates.js';
import { anchorDate, position } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

export const relativeDate: Rule = {
  id: 'MEM016',
  name: 'relative-date',
  description: 'Project memories use absolute dates: "next Thursday" means nothing a month later. The fix rewrites it, anchored at the file\'s modified date or mtime.',
  severity: 'warning',
  fixable: true,
  tags: ['content', 'dates'],
  needs: ['commitTimes'],
  examples: {
    valid: [{ files: { 'project_freeze.md': '---\nname: Freeze\ndescription: Merge freeze on main for the mobile release\ntype: project\nmodified: 2026-02-26\n---\nFreeze starts 2026-03-05.\n' } }],
    invalid: [
      { files: { 'project_freeze.md': '---\nname: Freeze\ndescription: Merge freeze on main for the mobile release\ntype: project\nmodified: 2026-02-26\n---\nFreeze starts next Thursday.\n' } },
      { files: { 'project_freeze.md': '---\nname: 冻结\ndescription: 移动端发布期间主干合并冻结\ntype: project\nmodified: 2026-02-26\n---\n下周四开始冻结，明天通知团队。\n' } },
    ],
  },
  check(model, report) {
    for (const topic of model.topics) {
      if (topic.fields.type !== 'project') continue;
      const anchor = anchorDate(topic);
      const bodyStart = topic.text.length - topic.topic.body.length;
      for (const found of findRelativeDates(topic.topic.body, anchor.date)) {
        const start = bodyStart + found.index;
        report({
          file: topic.path,
          ...position(topic, start),
          message: `"${found.text}" is relative; write ${found.replacement} (anchored at ${anchor.source})`,
          fix: { file: topic.path, edits: [{ start, end: start + found.text.length, text: found.replacement }] },
        });
      }
    }
  },
};
