import { tokenize } from '../../core/tokenize.js';
import { isMemoryType } from '../../core/taxonomy.js';
import { pointerTarget } from '../pointers.js';
import type { Rule } from '../types.js';

const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** `## Feedback`, `## Projects`, `## User` … → the type a section holds. */
function sectionType(heading: string): string | undefined {
  const word = normalize(heading).replace(/s$/, '');
  return isMemoryType(word) ? word : undefined;
}

/** Latin or not: what the letters of a text are written in, roughly. */
function scriptOf(text: string): 'latin' | 'other' | 'mixed' {
  const latin = /\p{Script=Latin}/u.test(text);
  const other = /[^\P{L}\p{Script=Latin}]/u.test(text);
  return latin && other ? 'mixed' : other ? 'other' : 'latin';
}

/**
 * A title fits the file it points to when it is the file's name or file name, or shares a word
 * (stemmed, any script) with either: titles are often shortened names, and a pointer titled
 * with its own file name (`[feedback_x.md](feedback_x.md)`) names the file exactly.
 */
function titleFitsFile(title: string, path: string, name: string): boolean {
  const fileName = path.replace(/^.*\//, '');
  const plain = title.replace(/\\(.)/g, '$1').trim();
  if (plain === name || plain === fileName || plain === fileName.replace(/\.md$/i, '')) return true;
  const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, ''); // générateur = generateur
  const words = new Set(tokenize(fold(plain)));
  if (words.size === 0) return true;
  // A title in another script than the name (專案總覽 for project_overview) is a translation: no words to compare.
  if (scriptOf(plain) !== scriptOf(`${name} ${fileName}`)) return true;
  const own = [...tokenize(fold(name)), ...tokenize(fold(fileName.replace(/\.md$/i, '')))];
  return own.length === 0 || own.some((word) => words.has(word));
}

export const indexMismatch: Rule = {
  id: 'MEM022',
  name: 'index-mismatch',
  description: "A pointer's title shares no word (stemmed, any script) with the topic file's name or file name, or the type section it sits in disagrees with the file's type.",
  severity: 'warning',
  fixable: false,
  tags: ['index', 'pointers'],
  examples: {
    valid: [{ files: { 'MEMORY.md': '## Feedback\n- [Terse replies](feedback_terse.md) — no recap\n', 'feedback_terse.md': '---\nname: Terse replies\ndescription: d\ntype: feedback\n---\n' } }],
    invalid: [
      { files: { 'MEMORY.md': '## Project\n- [Terse replies](feedback_terse.md) — no recap\n', 'feedback_terse.md': '---\nname: Terse replies\ndescription: d\ntype: feedback\n---\n' } },
      { files: { 'MEMORY.md': '- [Deploy window](feedback_terse.md) — no recap\n', 'feedback_terse.md': '---\nname: Terse replies\ndescription: d\ntype: feedback\n---\n' } },
    ],
  },
  check(model, report) {
    const index = model.index;
    if (!index) return;
    const byPath = new Map(model.topics.map((t) => [t.path, t]));
    let section: string | undefined;
    for (const line of index.index.lines) {
      if (line.kind === 'heading') section = sectionType(line.text);
      if (line.kind !== 'pointer') continue;
      const target = pointerTarget(model, line);
      const topic = target.kind === 'file' ? byPath.get(target.path) : undefined;
      if (!topic) continue;
      const type = topic.fields.type;
      if (section && type && isMemoryType(type) && section !== type) {
        report({ file: index.path, line: line.line, column: 1, message: `listed under a ${section} heading, but ${topic.path} is type ${type}` });
      }
      if (!titleFitsFile(line.title, topic.path, topic.fields.name ?? '')) {
        report({ file: index.path, line: line.line, column: 4, message: `title "${line.title}" shares no word with the file's name "${topic.fields.name}" or its file name` });
      }
    }
  },
};
