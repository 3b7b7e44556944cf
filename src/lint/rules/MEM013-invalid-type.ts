import { MEMORY_TYPES, isMemoryType } from '../../core/taxonomy.js';
import { fieldLine } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

export const invalidType: Rule = {
  id: 'MEM013',
  name: 'invalid-type',
  description: `type must be one of ${MEMORY_TYPES.join(', ')}.`,
  severity: 'error',
  fixable: false,
  tags: ['frontmatter'],
  examples: {
    valid: [{ files: { 'project_x.md': '---\nname: X\ndescription: d\ntype: project\n---\n' } }],
    invalid: [{ files: { 'project_x.md': '---\nname: X\ndescription: d\ntype: decision\n---\n' } }],
  },
  check(model, report) {
    for (const topic of model.topics) {
      const type = topic.fields.type;
      if (type === undefined || isMemoryType(type)) continue;
      const line = fieldLine(topic, 'type');
      report({ file: topic.path, line, column: 1, message: `type "${type}" is not one of ${MEMORY_TYPES.join(', ')}` });
    }
  },
};
