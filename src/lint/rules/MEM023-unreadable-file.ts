import type { Rule } from '../types.js';

export const unreadableFile: Rule = {
  id: 'MEM023',
  name: 'unreadable-file',
  description: 'A .md file in the memory directory is not UTF-8 text (binary, or another encoding).',
  severity: 'error',
  fixable: false,
  tags: ['safety'],
  examples: { valid: [{ files: { 'user_role.md': '---\nname: Role\n---\n' } }], invalid: [{ files: { 'user_role.md': '\u0000\u0001binary' } }] },
  check(model, report) {
    for (const file of model.unreadable) report({ file: file.path, line: 1, column: 1, message: file.message });
  },
};
