import { RULE_OPTIONS } from '../../config/rule-catalog.js';
import { comparableText, similarPairs } from '../../core/similarity.js';
import type { Rule } from '../types.js';

export const nearDuplicate: Rule = {
  id: 'MEM018',
  name: 'near-duplicate',
  description: 'Two topic files say nearly the same thing; merge them (memdir refactor or memdir dream) before they drift into contradiction.',
  severity: 'warning',
  fixable: false,
  tags: ['content', 'duplicates'],
  options: RULE_OPTIONS.MEM018,
  examples: {
    valid: [
      {
        files: {
          'feedback_terse.md': '---\nname: Terse\ndescription: No recap at the end of responses\ntype: feedback\n---\nDo not summarize what was done at the end of a response.\n',
          'project_freeze.md': '---\nname: Freeze\ndescription: Merge freeze on main for the mobile release\ntype: project\n---\nNo merges to main while mobile cuts the release branch.\n',
        },
      },
    ],
    invalid: [
      {
        files: {
          'feedback_terse.md':
            '---\nname: Terse replies\ndescription: No recap at the end of responses\ntype: feedback\n---\nDo not summarize what was done at the end of a response; the user reads the diff.\n',
          'feedback_no_summary.md':
            '---\nname: No summaries\ndescription: No recap at the end of responses, user reads diff\ntype: feedback\n---\nDo not summarize what was done at the end of a response; the user reads the diff.\n',
        },
      },
    ],
  },
  check(model, report, options) {
    const topics = model.topics;
    const texts = topics.map((t) => comparableText(t.fields, t.topic.body));
    for (const { a, b, score } of similarPairs(texts, { threshold: options.threshold as number })) {
      // Report on the newer file: it is the one that repeated the older.
      const [older, newer] = topics[a]!.mtimeMs <= topics[b]!.mtimeMs ? [topics[a]!, topics[b]!] : [topics[b]!, topics[a]!];
      report({ file: newer.path, line: 1, column: 1, message: `${Math.round(score * 100)}% the same words as ${older.path}; merge them` });
    }
  },
};
