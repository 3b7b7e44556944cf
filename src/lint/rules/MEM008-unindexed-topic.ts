import { fittedHook, parseMemoryIndex, renderPointer, type IndexLine } from '../../core/memory-index.js';
import { INDEX_MAX_LINES } from '../../core/limits.js';
import { findSecrets } from '../../core/secrets.js';
import { INDEX_FILE, isMemoryType } from '../../core/taxonomy.js';
import type { IndexSource, MemoryDirModel, TopicSource } from '../../core/dir-model.js';
import { isMemory } from '../memory-files.js';
import { indexPointers, pointerTarget } from '../pointers.js';
import type { Rule } from '../types.js';
import { escapeRegExp } from '../../core/regexp.js';

/** The pointer line for a topic: name as title, a hook within the line limit, no text a secret rule matches. */
function pointerFor(topic: TopicSource): string {
  const fileTitle = topic.path.replace(/\.md$/, '').replace(/^.*\//, '');
  const name = topic.fields.name?.trim() ?? '';
  const title = name && findSecrets(name).length === 0 ? name : fileTitle;
  const target = encodeURI(topic.path);
  const description = topic.fields.description?.trim() ?? '';
  const hook = findSecrets(description).length === 0 ? fittedHook(title, target, description) : '';
  return renderPointer({ title, target, hook });
}

/** `## Feedback`, `## Projects`… → the memory type the section holds. */
function sectionType(line: IndexLine): string | undefined {
  if (line.kind !== 'heading') return undefined;
  const word = line.text
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, ' ')
    .trim()
    .replace(/s$/, '');
  return isMemoryType(word) ? word : undefined;
}

/**
 * Where a new pointer for `type` goes: after the last pointer of its type section, else after
 * the last pointer, else at the end — only inside the first INDEX_MAX_LINES lines the agent
 * loads (it never sees the rest); undefined when there is no room there.
 */
function insertionLine(index: IndexSource | undefined, type: string | undefined, added: number): number | undefined {
  const lines = index?.index.lines ?? [];
  // Lines as the agent counts them (frontmatter and comments do not use up the 200).
  const counted = index?.load.fileLines ?? [];
  const room = (after: number) => (counted.filter((line) => line <= after).length + added < INDEX_MAX_LINES ? after : undefined);
  let section: string | undefined;
  let lastInSection: number | undefined;
  let lastPointer: number | undefined;
  for (const line of lines) {
    if (line.kind === 'heading') section = sectionType(line);
    if (line.kind !== 'pointer') continue;
    lastPointer = line.line;
    if (type && section === type) lastInSection = line.line;
  }
  return room(lastInSection ?? lastPointer ?? lines.length);
}

function indexedTopics(model: MemoryDirModel): Set<string> {
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
  return indexed;
}

export const unindexedTopic: Rule = {
  id: 'MEM008',
  name: 'unindexed-topic',
  description:
    'A topic file has no pointer in MEMORY.md (or in a sub-index MEMORY.md points to), so the agent never learns it exists (off with skipIndex). Files without frontmatter named like hand-off notes (LAST_SESSION.md, README.md, TODO.md, CHANGELOG.md…) are not memories, nor files without frontmatter in an `archive/` folder; a file whose folder the index names ("`ls brainstorms/`") is known to the agent; `ignore` globs leave out others. The fix adds the pointer under its type section within the first 200 lines, with a hook that keeps the line within 150 characters and no secret; when the first 200 lines have no room it only reports (memdir refactor makes room).',
  severity: 'warning',
  fixable: true,
  tags: ['index', 'pointers'],
  examples: {
    valid: [
      {
        files: {
          'MEMORY.md': '- [Role](user_role.md) — data engineer\n',
          'user_role.md': '---\nname: Role\ndescription: data engineer\ntype: user\n---\n',
          'LAST_SESSION.md': 'Stopped at the parser.\n',
        },
      },
    ],
    invalid: [{ files: { 'MEMORY.md': '# Memory\n', 'user_role.md': '---\nname: Role\ndescription: data engineer\ntype: user\n---\n' } }],
  },
  check(model, report) {
    // An index present but not readable (MEM023, MEM007) cannot say what it lists.
    if (model.skipIndex || (!model.index && model.files.has(INDEX_FILE))) return;
    const indexed = indexedTopics(model);
    const index = model.index;
    const text = index?.text ?? '';
    // A file the index names in its text (`slice-review.md`, [[slice-review]]), or whose folder it
    // names as a folder ("`ls brainstorms/`"), is known to the agent.
    const namesFolder = (folder: string) => new RegExp(`(?<![\\w.-])${escapeRegExp(folder)}/(?![\\w.-])`).test(text);
    const named = (topic: TopicSource) => {
      const fileName = topic.path.replace(/^.*\//, '');
      const folder = topic.path.slice(0, -fileName.length - 1);
      return text.includes(fileName) || text.includes(`[[${fileName.replace(/\.md$/, '')}]]`) || (folder !== '' && namesFolder(folder));
    };
    const eol = index?.index.eol ?? '\n';
    let added = 0;
    for (const topic of model.topics) {
      if (indexed.has(topic.path) || !isMemory(topic) || named(topic)) continue;
      const where = { file: topic.path, line: 1, column: 1 };
      const after = insertionLine(index, topic.fields.type, added);
      if (after === undefined) {
        report({ ...where, message: `not listed in ${INDEX_FILE}, and its first ${INDEX_MAX_LINES} lines have no room for a pointer; run memdir refactor` });
        continue;
      }
      added++;
      const at = after === 0 ? 0 : (index?.lineStarts[after] ?? text.length);
      const prefix = at === 0 || text[at - 1] === '\n' ? '' : eol;
      report({
        ...where,
        message: `not listed in ${INDEX_FILE}; the agent will not know this memory exists`,
        fix: { file: INDEX_FILE, edits: [{ start: at, end: at, text: `${prefix}${pointerFor(topic)}${eol}` }] },
      });
    }
  },
};
