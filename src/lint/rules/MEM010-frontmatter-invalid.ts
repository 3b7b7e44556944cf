import type { Rule } from '../types.js';

export const frontmatterInvalid: Rule = {
  id: 'MEM010',
  name: 'frontmatter-invalid',
  description: 'The YAML frontmatter of a topic file does not parse, so its name, description and type are lost.',
  severity: 'error',
  fixable: false,
  tags: ['frontmatter'],
  examples: {
    valid: [{ files: { 'user_role.md': '---\nname: Role\ndescription: "Data engineer: billing"\ntype: user\n---\n' } }],
    invalid: [{ files: { 'user_role.md': '---\nname: Role\ndescription: [unclosed\ntype: user\n---\n' } }, { files: { 'user_role.md': '---\nname: Role\n' } }],
  },
  check(model, report) {
    for (const topic of model.topics) {
      for (const problem of topic.problems) {
        if (problem.lenient) continue; // MEM011 covers what Claude Code still reads
        report({ file: topic.path, line: problem.line, column: 1, message: problem.message });
      }
    }
  },
};
