import { messages } from '../../core/messages.js';
import { INDEX_FILE } from '../../core/taxonomy.js';
import { indexPointers } from '../pointers.js';
import type { Rule } from '../types.js';

export const pointerEscapes: Rule = {
  id: 'MEM007',
  name: 'pointer-escapes',
  description: 'A pointer leads outside the memory directory (absolute path, .., or a symlink out), or MEMORY.md itself is a symlink out.',
  severity: 'error',
  fixable: false,
  tags: ['index', 'pointers', 'safety'],
  examples: {
    valid: [{ files: { 'MEMORY.md': '- [Role](user_role.md)\n', 'user_role.md': '---\nname: Role\n---\n' } }],
    invalid: [{ files: { 'MEMORY.md': '- [Keys](../../.ssh/id_rsa.md)\n- [Abs](/etc/passwd.md)\n' } }],
  },
  check(model, report) {
    if (model.escapingLinks.has(INDEX_FILE)) {
      report({ file: INDEX_FILE, line: 1, column: 1, message: `${INDEX_FILE} is ${messages.escapingFile()}` });
    }
    const index = model.index;
    if (!index) return;
    for (const { line, target } of indexPointers(model)) {
      if (target.kind !== 'escapes') continue;
      report({ file: index.path, line: line.line, column: line.raw.indexOf('(') + 2, message: `points outside the memory directory: ${target.reason}` });
    }
  },
};
