import { unquotedColonValues } from '../../core/topic-file.js';
import type { Rule } from '../types.js';

export const frontmatterUnquoted: Rule = {
  id: 'MEM011',
  name: 'frontmatter-unquoted',
  description: 'A frontmatter value contains ": " without quotes. Claude Code reads it anyway, but it is not YAML, so other tools see no frontmatter at all.',
  severity: 'warning',
  fixable: true,
  tags: ['frontmatter'],
  examples: {
    valid: [{ files: { 'feedback_letters.md': '---\nname: Letters\ndescription: "Cover letters: NYC, one page"\ntype: feedback\n---\n' } }],
    invalid: [{ files: { 'feedback_letters.md': '---\nname: Letters\ndescription: Cover letters: NYC, one page\ntype: feedback\n---\n' } }],
  },
  check(model, report) {
    for (const topic of model.topics) {
      const fm = topic.topic.frontmatter;
      if (!fm || !topic.problems.some((p) => p.lenient)) continue;
      const base = topic.topic.bom.length + fm.open.length;
      for (const { value, line, start, end } of unquotedColonValues(fm.raw)) {
        report({
          file: topic.path,
          line: fm.startLine + 1 + line,
          column: 1,
          message: 'value contains ": " and must be quoted to be valid YAML',
          fix: { file: topic.path, edits: [{ start: base + start, end: base + end, text: JSON.stringify(value) }] },
        });
      }
    }
  },
};
