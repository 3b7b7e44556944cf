import type { Rule } from '../types.js';

const SECOND_BLOCK = /^\s*---[ \t]*\r?\n((?:.*\r?\n)*?)---[ \t]*(?:\r?\n|$)/;

export const duplicateFrontmatter: Rule = {
  id: 'MEM021',
  name: 'duplicate-frontmatter',
  description: 'A second frontmatter block follows the first (a botched merge or append); only the first is read.',
  severity: 'error',
  fixable: false,
  tags: ['frontmatter'],
  examples: {
    valid: [{ files: { 'user_role.md': '---\nname: Role\ndescription: d\ntype: user\n---\n\nText\n\n---\n\nMore text after a rule.\n' } }],
    invalid: [{ files: { 'user_role.md': '---\nname: Role\ndescription: d\ntype: user\n---\n---\nname: Role v2\ndescription: d2\ntype: user\n---\nText\n' } }],
  },
  check(model, report) {
    for (const topic of model.topics) {
      if (!topic.topic.frontmatter) continue;
      const match = SECOND_BLOCK.exec(topic.topic.body);
      if (!match || !/^(?:name|description|type)\s*:/m.test(match[1]!)) continue;
      const leadingLines = topic.topic.body.slice(0, match[0].indexOf('---')).split('\n').length - 1;
      report({ file: topic.path, line: topic.topic.bodyLine + leadingLines, column: 1, message: 'a second frontmatter block; merge it into the first' });
    }
  },
};
