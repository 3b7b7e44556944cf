import { lineRange } from '../../core/dir-model.js';
import { topicFilesKeptElsewhere } from '../../core/memory-index.js';
import { indexPointers } from '../pointers.js';
import type { Rule } from '../types.js';

export const deadPointer: Rule = {
  id: 'MEM006',
  name: 'dead-pointer',
  description:
    'A pointer in MEMORY.md names a topic file that does not exist. When most of the index points to absent files (10 or more, half the pointers or more), one finding says so and --fix drops nothing: the files are kept elsewhere.',
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
    const pointers = indexPointers(model);
    const dead = pointers.filter(({ target }) => target.kind === 'file' && !model.files.has(target.path));
    if (topicFilesKeptElsewhere(dead.length, pointers.length)) {
      // Most topic files are absent: they are kept elsewhere (gitignored, private), not gone. One finding, no fix.
      const first = dead[0]!.line;
      report({
        file: index.path,
        line: first.line,
        column: 1,
        message: `${dead.length} of ${pointers.length} pointers lead to files not in this directory (are the topic files kept out of git?); nothing is dropped`,
      });
      return;
    }
    for (const { line, target } of dead) {
      if (target.kind !== 'file') continue;
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
