import { RULE_OPTIONS } from '../../config/rule-catalog.js';
import { INDEX_LINE_REPORT } from '../../core/limits.js';
import { inBlock, inlineBlocks } from '../index-blocks.js';
import type { Rule } from '../types.js';

const MAX = INDEX_LINE_REPORT;

export const indexLineLength: Rule = {
  id: 'MEM004',
  name: 'index-line-length',
  description: `Index lines should stay under ${MAX} characters: a pointer, not the memory itself (memdir writes new ones ≤ 150 and shortens none under the ~200 Claude Code asks for). Lines inside an inline block that MEM005 reports are not reported again.`,
  severity: 'warning',
  fixable: false,
  tags: ['index', 'style'],
  options: RULE_OPTIONS.MEM004,
  examples: {
    valid: [{ files: { 'MEMORY.md': '- [Role](user_role.md) — data engineer on billing\n' } }],
    invalid: [{ files: { 'MEMORY.md': `- [Role](user_role.md) — ${'very long hook '.repeat(15)}\n` } }],
  },
  check(model, report, options) {
    const index = model.index;
    if (!index) return;
    const max = options.max as number;
    const blocks = inlineBlocks(index.index);
    for (const line of index.index.lines) {
      if (line.kind === 'code' || line.raw.length <= max || inBlock(blocks, line.line)) continue;
      report({ file: index.path, line: line.line, column: max + 1, message: `line is ${line.raw.length} characters (limit ${max}); move the detail into the topic file` });
    }
  },
};
