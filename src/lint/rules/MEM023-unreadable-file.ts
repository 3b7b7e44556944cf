import { MAX_TOPIC_FILE_BYTES } from '../../core/limits.js';
import type { Rule } from '../types.js';

export const unreadableFile: Rule = {
  id: 'MEM023',
  name: 'unreadable-file',
  description: `A .md file memdir leaves alone: not UTF-8 text (binary, Latin-1 or another encoding, UTF-16 without a byte-order mark), or a topic file over ${MAX_TOPIC_FILE_BYTES / (1024 * 1024)} MB. No command rewrites, merges, splits or drops it, and pointers to it are not dead.`,
  severity: 'error',
  fixable: false,
  tags: ['safety'],
  examples: { valid: [{ files: { 'user_role.md': '---\nname: Role\n---\n' } }], invalid: [{ files: { 'user_role.md': '\u0000\u0001binary' } }] },
  check(model, report) {
    for (const file of model.unreadable) report({ file: file.path, line: 1, column: 1, message: file.message });
  },
};
