import type { ContentKind } from '../../core/memory-index.js';
import { inlineBlocks } from '../index-blocks.js';
import type { Rule } from '../types.js';

const LABEL: Record<ContentKind, string> = {
  paragraph: 'paragraph',
  table: 'table',
  code: 'code block',
  list: 'list of details',
  html: 'HTML',
  quote: 'block quote',
};

export const indexPointersOnly: Rule = {
  id: 'MEM005',
  name: 'index-pointers-only',
  description:
    'MEMORY.md holds one-line pointers and headings only; content belongs in topic files. One finding per block of content between pointers; thematic breaks (`---`), HTML comments and a short front note (up to 5 lines before the first pointer or section) are layout, not content.',
  severity: 'warning',
  fixable: false,
  tags: ['index', 'structure'],
  examples: {
    valid: [{ files: { 'MEMORY.md': '# Memory\n\n<!-- one line per memory -->\n\n## Feedback\n- [Terse](feedback_terse.md) — no recap\n\n---\n' } }],
    invalid: [{ files: { 'MEMORY.md': '# Memory\n\n## Build\nThe build uses pnpm 9; run pnpm -w build first.\n\n| svc | port |\n|---|---|\n' } }],
  },
  check(model, report) {
    const index = model.index;
    if (!index) return;
    for (const block of inlineBlocks(index.index)) {
      const lines = block.start === block.end ? `line ${block.start}` : `lines ${block.start}–${block.end}`;
      const kinds = block.kinds.map((kind) => LABEL[kind]).join(', ');
      report({
        file: index.path,
        line: block.start,
        column: 1,
        endLine: block.end,
        message: `inline content (${kinds}) in the index, ${lines}; move it into topic files and leave pointers (memdir refactor)`,
      });
    }
  },
};
