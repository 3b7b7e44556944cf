import { INDEX_MAX_LINES } from '../../core/limits.js';
import type { Rule } from '../types.js';

export const indexMaxLines: Rule = {
  id: 'MEM002',
  name: 'index-max-lines',
  description: `MEMORY.md is longer than ${INDEX_MAX_LINES} lines as the agent counts them (after frontmatter and comments are stripped); it never sees the rest.`,
  severity: 'error',
  fixable: false,
  tags: ['index', 'limits'],
  examples: {
    valid: [{ files: { 'MEMORY.md': `---\nname: index\n---\n<!-- pointers only -->\n${'- [A](a.md)\n'.repeat(200)}` } }],
    invalid: [{ files: { 'MEMORY.md': '- [A](a.md)\n'.repeat(201) } }],
  },
  check(model, report) {
    const index = model.index;
    if (!index) return;
    const { lineCount, fileLines } = index.load;
    if (lineCount <= INDEX_MAX_LINES) return;
    const firstCut = fileLines[INDEX_MAX_LINES]!;
    const hidden = index.index.lines.filter((l) => l.kind === 'pointer' && l.line >= firstCut).length;
    report({
      file: index.path,
      line: firstCut,
      column: 1,
      message: `${lineCount} lines as loaded; the agent loads ${INDEX_MAX_LINES}, so from here on (${hidden} pointer${hidden === 1 ? '' : 's'}) is never seen — run memdir refactor`,
    });
  },
};
