import { INDEX_MAX_BYTES } from '../../core/limits.js';
import { position } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

// Grouped by hand: toLocaleString at load starts ICU, a cost on every start of the guard's judge (bench `guard`).
const LIMIT = String(INDEX_MAX_BYTES).replace(/\B(?=(\d{3})+$)/g, ',');

export const indexMaxBytes: Rule = {
  id: 'MEM003',
  name: 'index-max-bytes',
  description: `MEMORY.md is over ${LIMIT} characters as the agent counts them (UTF-16 units, after frontmatter and comments are stripped); it is cut at the last line break before that.`,
  severity: 'error',
  fixable: false,
  tags: ['index', 'limits'],
  examples: {
    valid: [{ files: { 'MEMORY.md': `- [A](a.md) — ${'x'.repeat(100)}\n`.repeat(100) } }],
    invalid: [{ files: { 'MEMORY.md': `- [A](a.md) — ${'x'.repeat(300)}\n`.repeat(100) } }],
  },
  check(model, report) {
    const index = model.index;
    if (!index) return;
    const { byteCount, cutBy, cutAt } = index.load;
    // When the line limit cuts first, MEM002 says where.
    if (cutBy !== 'size' || cutAt === undefined) return;
    report({
      file: index.path,
      ...position(index, cutAt),
      message: `${byteCount.toLocaleString('en-US')} characters; the agent stops reading at ${INDEX_MAX_BYTES.toLocaleString('en-US')}, so from here on is never seen — keep one short line per entry`,
    });
  },
};
