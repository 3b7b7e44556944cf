import { INDEX_MAX_BYTES, INDEX_MAX_LINES } from '../../core/limits.js';
import { position } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

export const indexMaxBytes: Rule = {
  id: 'MEM003',
  name: 'index-max-bytes',
  description: `MEMORY.md is over ${INDEX_MAX_BYTES.toLocaleString('en-US')} characters (UTF-16 units, as the agent counts); it is cut at the last line break before that.`,
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
    const trimmed = index.text.trim();
    const kept = trimmed.split('\n').slice(0, INDEX_MAX_LINES).join('\n');
    if (kept.length <= INDEX_MAX_BYTES) return;
    const leading = index.text.length - index.text.trimStart().length;
    const cut = kept.lastIndexOf('\n', INDEX_MAX_BYTES);
    const at = position(index, leading + (cut > 0 ? cut + 1 : INDEX_MAX_BYTES));
    report({
      file: index.path,
      ...at,
      message: `${trimmed.length.toLocaleString('en-US')} characters; the agent stops reading at ${INDEX_MAX_BYTES.toLocaleString('en-US')}, so from here on is never seen — keep one short line per entry`,
    });
  },
};
