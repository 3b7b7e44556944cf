import { lineRange } from '../../core/dir-model.js';
import { indexPointers } from '../pointers.js';
import type { Rule } from '../types.js';

export const duplicatePointer: Rule = {
  id: 'MEM009',
  name: 'duplicate-pointer',
  description: 'Two pointers in MEMORY.md lead to the same topic file.',
  severity: 'warning',
  fixable: true,
  tags: ['index', 'pointers'],
  examples: {
    valid: [{ files: { 'MEMORY.md': '- [A](a.md)\n- [B](b.md)\n', 'a.md': '', 'b.md': '' } }],
    invalid: [{ files: { 'MEMORY.md': '- [A](a.md)\n- [A again](./a.md) — same file\n', 'a.md': '' } }],
  },
  check(model, report) {
    const index = model.index;
    if (!index) return;
    const first = new Map<string, number>();
    for (const { line, target } of indexPointers(model)) {
      if (target.kind !== 'file') continue;
      const seen = first.get(target.path);
      if (seen === undefined) {
        first.set(target.path, line.line);
        continue;
      }
      report({
        file: index.path,
        line: line.line,
        column: 1,
        message: `second pointer to ${target.path} (first on line ${seen})`,
        fix: { file: index.path, edits: [{ ...lineRange(index, line.line), text: '' }] },
      });
    }
  },
};
