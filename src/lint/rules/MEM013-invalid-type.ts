import type { TopicSource } from '../../core/dir-model.js';
import { MEMORY_TYPES, isMemoryType } from '../../core/taxonomy.js';
import { fieldLine } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

/** This many files of one unknown type are a taxonomy of the directory's own. */
const OWN_TAXONOMY = 3;

export const invalidType: Rule = {
  id: 'MEM013',
  name: 'invalid-type',
  description: `type must be one of ${MEMORY_TYPES.join(', ')}. A type used by 3 or more files (a taxonomy of the directory's own) is reported once.`,
  severity: 'error',
  fixable: false,
  tags: ['frontmatter'],
  examples: {
    valid: [{ files: { 'project_x.md': '---\nname: X\ndescription: d\ntype: project\n---\n' } }],
    invalid: [{ files: { 'project_x.md': '---\nname: X\ndescription: d\ntype: decision\n---\n' } }],
  },
  check(model, report) {
    const byType = new Map<string, TopicSource[]>();
    for (const topic of model.topics) {
      const type = topic.fields.type;
      if (type === undefined || isMemoryType(type)) continue;
      byType.set(type, [...(byType.get(type) ?? []), topic]);
    }
    for (const [type, topics] of byType) {
      // A directory's own taxonomy (several files of one type) is one decision: one finding.
      const shown = topics.length >= OWN_TAXONOMY ? topics.slice(0, 1) : topics;
      const others = topics.length >= OWN_TAXONOMY ? ` (nor in the ${topics.length - 1} other files of this type)` : '';
      for (const topic of shown) report({ file: topic.path, line: fieldLine(topic, 'type'), column: 1, message: `type "${type}" is not one of ${MEMORY_TYPES.join(', ')}${others}` });
    }
  },
};
