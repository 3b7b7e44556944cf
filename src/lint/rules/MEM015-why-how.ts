import type { Rule } from '../types.js';

// "**Why:**", "**Why**:", "Why:" (and the Chinese labels); a bare "why" in prose does not count.
const WHY = /\bwhy(?:\*\*|__)?\s*[:：]|为什么[:：]|原因[:：]/i;
const HOW = /\bhow to apply(?:\*\*|__)?\s*[:：]|如何应用[:：]|怎么用[:：]/i;

export const whyHow: Rule = {
  id: 'MEM015',
  name: 'why-how',
  description: 'feedback and project memories carry **Why:** and **How to apply:** so a later session can judge edge cases.',
  severity: 'warning',
  fixable: false,
  tags: ['content'],
  examples: {
    valid: [{ files: { 'feedback_terse.md': '---\nname: Terse\ndescription: No recap at the end of responses\ntype: feedback\n---\nNo recap.\n\n**Why:** reads diffs.\n**How to apply:** always.\n' } }],
    invalid: [{ files: { 'feedback_terse.md': '---\nname: Terse\ndescription: No recap at the end of responses\ntype: feedback\n---\nNo recap.\n' } }],
  },
  check(model, report) {
    for (const topic of model.topics) {
      if (topic.fields.type !== 'feedback' && topic.fields.type !== 'project') continue;
      const missing = [WHY.test(topic.topic.body) ? '' : '**Why:**', HOW.test(topic.topic.body) ? '' : '**How to apply:**'].filter(Boolean);
      if (missing.length === 0) continue;
      report({ file: topic.path, line: topic.topic.bodyLine, column: 1, message: `${topic.fields.type} memory without ${missing.join(' and ')}` });
    }
  },
};
