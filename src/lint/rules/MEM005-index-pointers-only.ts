import type { IndexLine } from '../../core/memory-index.js';
import type { Rule } from '../types.js';

const LABEL: Record<string, string> = {
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
  description: 'MEMORY.md holds one-line pointers and headings only; content belongs in topic files.',
  severity: 'warning',
  fixable: false,
  tags: ['index', 'structure'],
  examples: {
    valid: [{ files: { 'MEMORY.md': '# Memory\n\n## Feedback\n- [Terse](feedback_terse.md) — no recap\n' } }],
    invalid: [{ files: { 'MEMORY.md': '# Memory\n\nThe build uses pnpm 9; run pnpm -w build first.\n\n| svc | port |\n|---|---|\n' } }],
  },
  check(model, report) {
    const index = model.index;
    if (!index) return;
    // One finding per block of consecutive content lines of the same kind.
    let block: IndexLine[] = [];
    const flush = () => {
      const first = block[0];
      if (first) {
        const size = block.length === 1 ? '1 line' : `${block.length} lines`;
        report({ file: index.path, line: first.line, column: 1, message: `${LABEL[first.kind]} (${size}) in the index; move it into a topic file and leave a pointer (memdir refactor)` });
      }
      block = [];
    };
    for (const line of index.index.lines) {
      const content = line.kind !== 'pointer' && line.kind !== 'heading' && line.kind !== 'blank';
      if (!content || (block[0] && block[0].kind !== line.kind)) flush();
      if (content) block.push(line);
    }
    flush();
  },
};
