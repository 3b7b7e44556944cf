import { INDEX_MAX_LINES } from '../../core/limits.js';
import type { Rule } from '../types.js';

export const indexMaxLines: Rule = {
  id: 'MEM002',
  name: 'index-max-lines',
  description: `MEMORY.md is longer than ${INDEX_MAX_LINES} lines; the agent never sees the rest.`,
  severity: 'error',
  fixable: false,
  tags: ['index', 'limits'],
  examples: {
    valid: [{ files: { 'MEMORY.md': '- [A](a.md)\n'.repeat(200) } }],
    invalid: [{ files: { 'MEMORY.md': '- [A](a.md)\n'.repeat(201) } }],
  },
  check(model, report) {
    const index = model.index;
    if (!index) return;
    // The agent trims the text first, so leading blank lines do not count.
    const leading = index.text.length - index.text.trimStart().length;
    const lines = index.text.trim().split('\n');
    if (lines.length <= INDEX_MAX_LINES) return;
    const firstCut = index.text.slice(0, leading).split('\n').length - 1 + INDEX_MAX_LINES + 1;
    const hidden = index.index.lines.filter((l) => l.kind === 'pointer' && l.line >= firstCut).length;
    report({
      file: index.path,
      line: firstCut,
      column: 1,
      message: `${lines.length} lines; the agent loads ${INDEX_MAX_LINES}, so from here on (${hidden} pointer${hidden === 1 ? '' : 's'}) is never seen — run memdir refactor`,
    });
  },
};
