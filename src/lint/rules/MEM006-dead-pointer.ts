import { lineRange } from '../../core/dir-model.js';
import { indexPointers } from '../pointers.js';
import type { Rule } from '../types.js';

export const deadPointer: Rule = {
  id: 'MEM006',
  name: 'dead-pointer',
  description: 'A pointer in MEMORY.md names a topic file that does not exist.',
  severity: 'error',
  fixable: true,
  tags: ['index', 'pointers'],
  examples: {
    valid: [{ files: { 'MEMORY.md': '- [Role](user_role.md)\n', 'user_role.md': '---\nname: Role\n---\n' } }],
    invalid: [{ files: { 'MEMORY.md': '- [Role](user_role.md)\n- [Gone](project_gone.md) — removed\n', 'user_role.md': '---\nname: Role\n---\n' } }],
  },
  check(model, report) {
    const index = model.index;
    if (!index) return;
    for (const { line, target } of indexPointers(model)) {
      if (target.kind !== 'file' || model.files.has(target.path)) continue;
      report({
        file: index.path,
        line: line.line,
        column: line.raw.indexOf('(') + 2,
        message: `points to ${target.path}, which does not exist`,
        fix: { file: index.path, edits: [{ ...lineRange(index, line.line), text: '' }] },
      });
    }
  },
};
