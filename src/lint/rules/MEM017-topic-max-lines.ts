import { RULE_OPTIONS } from '../../config/rule-catalog.js';
import { TOPIC_MAX_LINES } from '../../core/limits.js';
import type { Rule } from '../types.js';

const MAX = TOPIC_MAX_LINES;

export const topicMaxLines: Rule = {
  id: 'MEM017',
  name: 'topic-max-lines',
  description: `A topic file over ${MAX} lines is several memories: split it (memdir refactor splits at headings).`,
  severity: 'warning',
  fixable: false,
  tags: ['content', 'limits'],
  options: RULE_OPTIONS.MEM017,
  examples: {
    valid: [{ files: { 'project_x.md': `---\nname: X\n---\n${'line\n'.repeat(50)}` } }],
    invalid: [{ files: { 'project_x.md': `---\nname: X\n---\n${'line\n'.repeat(250)}` } }],
  },
  check(model, report, options) {
    const max = options.max as number;
    for (const topic of model.topics) {
      const lines = topic.text.endsWith('\n') ? topic.lineStarts.length - 1 : topic.lineStarts.length;
      if (lines > max) report({ file: topic.path, line: max + 1, column: 1, message: `${lines} lines (limit ${max}); split it into focused memories` });
    }
  },
};
