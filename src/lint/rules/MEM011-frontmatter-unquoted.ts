import type { Rule, TextEdit } from '../types.js';

// `key: value` where the value holds ": " and is not quoted: YAML rejects it.
const BARE = /^([A-Za-z_][\w-]*):([ \t]+)([^'"[{|>&*!\s].*?: .*?)([ \t]*)$/;

export const frontmatterUnquoted: Rule = {
  id: 'MEM011',
  name: 'frontmatter-unquoted',
  description: 'A frontmatter value contains ": " without quotes. Claude Code reads it anyway, but it is not YAML, so other tools see no frontmatter at all.',
  severity: 'warning',
  fixable: true,
  tags: ['frontmatter'],
  examples: {
    valid: [{ files: { 'feedback_letters.md': '---\nname: Letters\ndescription: "Cover letters: NYC, one page"\ntype: feedback\n---\n' } }],
    invalid: [{ files: { 'feedback_letters.md': '---\nname: Letters\ndescription: Cover letters: NYC, one page\ntype: feedback\n---\n' } }],
  },
  check(model, report) {
    for (const topic of model.topics) {
      const fm = topic.topic.frontmatter;
      if (!fm || !topic.problems.some((p) => p.lenient)) continue;
      let offset = topic.topic.bom.length + fm.open.length;
      const edits: Array<{ line: number; edit: TextEdit }> = [];
      fm.raw.split('\n').forEach((rawLine, i) => {
        const line = rawLine.replace(/\r$/, '');
        const match = BARE.exec(line);
        if (match) {
          const start = offset + match[1]!.length + 1 + match[2]!.length;
          edits.push({ line: fm.startLine + 1 + i, edit: { start, end: start + match[3]!.length, text: JSON.stringify(match[3]) } });
        }
        offset += rawLine.length + 1;
      });
      for (const { line, edit } of edits) {
        report({ file: topic.path, line, column: 1, message: 'value contains ": " and must be quoted to be valid YAML', fix: { file: topic.path, edits: [edit] } });
      }
    }
  },
};
