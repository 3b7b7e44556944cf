import { INDEX_FILE } from '../../core/taxonomy.js';
import type { Rule } from '../types.js';

export const indexMissing: Rule = {
  id: 'MEM001',
  name: 'index-missing',
  description: 'The directory has memories but no MEMORY.md, so the agent loads none of them at session start.',
  severity: 'error',
  fixable: false,
  tags: ['index'],
  examples: {
    valid: [{ files: { 'MEMORY.md': '- [Role](user_role.md) — data engineer\n', 'user_role.md': '---\nname: Role\ndescription: User is a data engineer on billing\ntype: user\n---\nx\n' } }],
    invalid: [{ files: { 'user_role.md': '---\nname: Role\ndescription: User is a data engineer on billing\ntype: user\n---\nx\n' } }],
  },
  check(model, report) {
    // Present but not read (undecodable, or a symlink out): MEM023 or MEM007 says why.
    if (model.index || model.skipIndex || model.files.has(INDEX_FILE)) return;
    // Nothing for an index to point to (a clone that only pulled team/, which lints as a directory of its own): nothing is missing.
    if (model.topics.length === 0 && model.unreadable.length === 0) return;
    report({ file: INDEX_FILE, line: 1, column: 1, message: `${INDEX_FILE} is missing; the agent loads no memory index (memdir lint --fix adds pointers for every topic file)` });
  },
};
