import { parseMemoryIndex, renderPointer } from '../../core/memory-index.js';
import { INDEX_FILE } from '../../core/taxonomy.js';
import { indexPointers, pointerTarget } from '../pointers.js';
import type { TopicSource } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

function pointerFor(topic: TopicSource): string {
  const title = topic.fields.name?.trim() || topic.path.replace(/\.md$/, '').replace(/^.*\//, '');
  return renderPointer({ title, target: encodeURI(topic.path), hook: topic.fields.description?.trim() ?? '' });
}

export const unindexedTopic: Rule = {
  id: 'MEM008',
  name: 'unindexed-topic',
  description: 'A topic file has no pointer in MEMORY.md (or in a sub-index MEMORY.md points to), so the agent never learns it exists (off with skipIndex).',
  severity: 'warning',
  fixable: true,
  tags: ['index', 'pointers'],
  examples: {
    valid: [{ files: { 'MEMORY.md': '- [Role](user_role.md) — data engineer\n', 'user_role.md': '---\nname: Role\ndescription: data engineer\ntype: user\n---\n' } }],
    invalid: [{ files: { 'MEMORY.md': '# Memory\n', 'user_role.md': '---\nname: Role\ndescription: data engineer\ntype: user\n---\n' } }],
  },
  check(model, report) {
    // An index present but not readable (MEM023, MEM007) cannot say what it lists.
    if (model.skipIndex || (!model.index && model.files.has(INDEX_FILE))) return;
    // Indexed = pointed to from MEMORY.md, or from a file MEMORY.md points to (a two-level index).
    const indexed = new Set<string>();
    for (const { target } of indexPointers(model)) if (target.kind === 'file') indexed.add(target.path);
    for (const topic of model.topics) {
      if (!indexed.has(topic.path) || !topic.topic.body.includes('](')) continue;
      for (const line of parseMemoryIndex(topic.topic.body).lines) {
        if (line.kind !== 'pointer') continue;
        const target = pointerTarget(model, line);
        if (target.kind === 'file') indexed.add(target.path);
      }
    }
    const text = model.index?.text ?? '';
    // New pointers go right after the last pointer (or at the end), keeping the list together.
    const lastPointer = model.index?.index.lines.filter((l) => l.kind === 'pointer').at(-1);
    const at = lastPointer ? (model.index!.lineStarts[lastPointer.line] ?? text.length) : text.length;
    const eol = model.index?.index.eol ?? '\n';
    const prefix = at === 0 || text[at - 1] === '\n' ? '' : eol;
    for (const topic of model.topics) {
      if (indexed.has(topic.path)) continue;
      report({
        file: topic.path,
        line: 1,
        column: 1,
        message: `not listed in ${INDEX_FILE}; the agent will not know this memory exists`,
        fix: { file: INDEX_FILE, edits: [{ start: at, end: at, text: `${prefix}${pointerFor(topic)}${eol}` }] },
      });
    }
  },
};
