import { RULE_OPTIONS } from '../../config/rule-catalog.js';
import { fieldLine } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

const GENERIC = new Set([
  'notes',
  'note',
  'misc',
  'miscellaneous',
  'stuff',
  'info',
  'information',
  'todo',
  'tbd',
  'various',
  'general',
  'memory',
  'memories',
  'thoughts',
  'details',
  'other',
  'things',
  'random',
  'update',
  'updates',
  '笔记',
  '杂项',
  '其他',
]);

/** Han, kana and Hangul say a word in one or two characters: each counts double, six of them are specific enough. */
function effectiveLength(description: string): number {
  const dense = description.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g)?.length ?? 0;
  return dense >= 6 ? Number.POSITIVE_INFINITY : [...description].length + dense;
}

export const vagueDescription: Rule = {
  id: 'MEM014',
  name: 'vague-description',
  description: 'The description decides recall; it must say specifically when the memory is relevant (not "notes", not the name again, not a few words).',
  severity: 'warning',
  fixable: false,
  tags: ['frontmatter', 'recall'],
  options: RULE_OPTIONS.MEM014,
  examples: {
    valid: [{ files: { 'reference_grafana.md': '---\nname: Grafana\ndescription: API latency board on-call watches during deploys\ntype: reference\n---\n' } }],
    invalid: [
      { files: { 'reference_grafana.md': '---\nname: Grafana\ndescription: notes\ntype: reference\n---\n' } },
      { files: { 'reference_grafana.md': '---\nname: Grafana dashboard\ndescription: Grafana dashboard\ntype: reference\n---\n' } },
    ],
  },
  check(model, report, options) {
    const minLength = options.minLength as number;
    for (const topic of model.topics) {
      const description = topic.fields.description?.trim();
      if (!description) continue;
      const words = description
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean);
      let why: string | undefined;
      if (words.length > 0 && words.every((w) => GENERIC.has(w))) why = 'is a generic word';
      else if (description.toLowerCase() === topic.fields.name?.trim().toLowerCase()) why = 'only repeats the name';
      else if (effectiveLength(description) < minLength) why = `is under ${minLength} characters`;
      if (!why) continue;
      const line = fieldLine(topic, 'description');
      const raw = topic.text.slice(topic.lineStarts[line - 1], topic.lineStarts[line] ?? undefined);
      // `description: Issue #12 shipped` is "Issue" to YAML: the rest is a comment.
      const cut = / #/.test(raw) && !/^\s*description:\s*["']/.test(raw) && raw.length > description.length + 20;
      report({
        file: topic.path,
        line,
        column: 1,
        message: cut ? 'description is cut at " #": YAML reads the rest as a comment; quote the value' : `description "${description}" ${why}; say when this memory is relevant`,
      });
    }
  },
};
