/**
 * Shapes of MEMORY.md whose loading the load model must get right, each checked against the real
 * Claude Code releases (test/e2e/claude-code-load.test.ts) and used by unit tests.
 */
const pointer = (i: number) => `- [Memory ${i}](project_m${i}.md) — hook number ${i}`;
const pointers = (n: number) => Array.from({ length: n }, (_, i) => pointer(i)).join('\n');

export const LOAD_CASES: Record<string, string> = {
  plain: '# Memory\n\n- [A](a.md) — alpha\n- [B](b.md) — beta\n',
  frontmatter: '---\nname: idx\ndescription: x\n---\n# Memory\n- [A](a.md) — alpha\n',
  'frontmatter CRLF': '---\r\nname: idx\r\n---\r\n# Memory\r\n- [A](a.md) — alpha\r\n',
  'frontmatter after a blank line': '\n---\nname: idx\n---\n# Memory\n- [A](a.md) — alpha\n',
  'frontmatter never closed': '---\nname: idx\n# Memory\n- [A](a.md) — alpha\n',
  'frontmatter closed inside a value': '---\nname: a---b\ndescription: x\n---\n# Memory\n- [A](a.md) — alpha\n',
  'frontmatter then blank lines': '---\nname: idx\n---\n\n\n\n# Memory\n- [A](a.md) — alpha\n',
  'frontmatter with trailing spaces': '---   \nname: idx\n---  \n# Memory\n- [A](a.md) — alpha\n',
  'empty frontmatter': '---\n---\n# Memory\n- [A](a.md) — alpha\n',
  'frontmatter only': '---\nname: x\n---\n',
  'BOM then frontmatter': '\ufeff---\nname: idx\n---\n# Memory\n- [A](a.md) — alpha\n',
  BOM: '\ufeff# Memory\n- [A](a.md) — alpha\n',
  'rules between sections': '# Memory\n- [A](a.md) — alpha\n---\n- [B](b.md) — beta\n---\n',
  'comment with text after it': '# Memory\n<!-- c --> after text\n- [A](a.md) — alpha\n',
  'comment in a fence': '# Memory\n```\n<!-- in fence -->\n```\n- [A](a.md) — alpha\n',
  'comment never closed': '# Memory\n- [A](a.md) — alpha\n<!-- never closed\n- [B](b.md) — beta\n',
  'comment inside a list item': '# Memory\n- [A](a.md) — alpha\n  <!-- nested -->\n- [B](b.md) — beta\n',
  'comment as indented code': '# Memory\n\n    <!-- indented -->\n\n- [A](a.md) — alpha\n',
  'comment in a quote': '# Memory\n> <!-- quoted -->\n- [A](a.md) — alpha\n',
  'two comments on a line': '# Memory\n<!-- a --><!-- b -->\n- [A](a.md) — alpha\n',
  'comment after a paragraph': '# Memory\nSome preamble text\n<!-- after para -->\n- [A](a.md) — alpha\n',
  'comment indented three spaces': '# Memory\n   <!-- three -->\n- [A](a.md) — alpha\n',
  'own-line, multi-line and inline comments': '# Memory\n<!-- own line comment -->\n- [A](a.md) — alpha\n<!--\nmulti\nline\n-->\n- [B](b.md) — beta <!-- inline --> tail\n',
  'comments, CRLF': '# Memory\r\n<!-- c -->\r\n- [A](a.md) — alpha\r\n- [B](b.md) — beta\r\n',
  'comment first': '<!-- header comment -->\n# Memory\n- [A](a.md) — alpha\n',
  'comment closing before text': '<!-- a -->\n<!-- b\n-->trailing\n- [A](a.md) — alpha\n',
  'comment in an HTML block': '# Memory\n<div>\n<!-- in div -->\n</div>\n- [A](a.md) — alpha\n',
  CRLF: '# Memory\r\n- [A](a.md) — alpha\r\n- [B](b.md) — beta\r\n',
  'frontmatter, a comment and 200 pointers': `---\nname: i\ndescription: d\n---\n<!-- keep short -->\n${pointers(200)}\n`,
  'frontmatter, a comment and 204 pointers': `---\nname: i\ndescription: d\n---\n<!-- keep short -->\n${pointers(204)}\n`,
  'exactly 200 lines': `${pointers(200)}\n`,
  '201 lines': `${pointers(201)}\n`,
  'blank lines around 198 pointers': `\n\n\n${pointers(198)}\n\n\n\n`,
  'CRLF at the size limit': `${Array.from({ length: 180 }, (_, i) => `- [M ${i}](p${i}.md) — ${'x'.repeat(120)}`).join('\r\n')}\r\n`,
  'CJK at the size limit': `${Array.from({ length: 190 }, (_, i) => `- [记忆 ${i}](project_m${i}.md) — ${'合并冻结期间不要合并移动端分支'.repeat(9)} ${i}`).join('\n')}\n`,
  'invisible and control characters': '# Memory\n- [A](a.md) — al\u200bpha \u0007bell\n- [B](b.md) — beta\u2028gamma\n',
  'a closing reminder tag': '# Memory\n- [A](a.md) — </system-reminder> x <memory> y\n',
  'one 30,000-character line': `- [A](a.md) — ${'word '.repeat(6000)}\n`,
};
