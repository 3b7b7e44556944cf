import { missingWhyHow } from '../../core/taxonomy.js';
import type { Rule } from '../types.js';

export const whyHow: Rule = {
  id: 'MEM015',
  name: 'why-how',
  description: 'feedback and project memories carry **Why:** and **How to apply:** so a later session can judge edge cases.',
  severity: 'warning',
  fixable: false,
  tags: ['content'],
  examples: {
    valid: [
      { files: { 'feedback_terse.md': '---\nname: Terse\ndescription: No recap at the end of responses\ntype: feedback\n---\nNo recap.\n\n**Why:** reads diffs.\n**How to apply:** always.\n' } },
    ],
    invalid: [{ files: { 'feedback_terse.md': '---\nname: Terse\ndescription: No recap at the end of responses\ntype: feedback\n---\nNo recap.\n' } }],
  },
  check(model, report) {
    for (const topic of model.topics) {
      const missing = missingWhyHow(topic.fields.type, topic.topic.body);
      if (missing.length === 0) continue;
      report({ file: topic.path, line: topic.topic.bodyLine, column: 1, message: `${topic.fields.type} memory without ${missing.join(' and ')}` });
    }
  },
};
