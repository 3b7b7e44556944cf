import { isMemory } from '../memory-files.js';
import type { Rule } from '../types.js';

const REQUIRED = ['name', 'description', 'type'] as const;

export const missingField: Rule = {
  id: 'MEM012',
  name: 'missing-field',
  description: 'A topic file lacks name, description or type in its frontmatter (or has no frontmatter).',
  severity: 'error',
  fixable: false,
  tags: ['frontmatter'],
  examples: {
    valid: [{ files: { 'user_role.md': '---\nname: Role\ndescription: Data engineer on billing\nmetadata:\n  type: user\n---\n' } }],
    invalid: [{ files: { 'user_role.md': '---\nname: Role\n---\nbody\n' } }, { files: { 'notes.md': '# Notes\n\nNo frontmatter.\n' } }],
  },
  check(model, report) {
    for (const topic of model.topics) {
      if (topic.problems.some((p) => !p.lenient) || !isMemory(topic)) continue; // MEM010 already says why nothing was read
      if (!topic.topic.frontmatter) {
        report({ file: topic.path, line: 1, column: 1, message: 'no frontmatter: add name, description and type between --- lines' });
        continue;
      }
      const missing = REQUIRED.filter((key) => !topic.fields[key]?.trim());
      if (missing.length === 0) continue;
      report({ file: topic.path, line: topic.topic.frontmatter.startLine, column: 1, message: `frontmatter lacks ${missing.join(', ')}` });
    }
  },
};
