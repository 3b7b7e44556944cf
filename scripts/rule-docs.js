// npm run docs:rules — regenerate docs/rules/<id>.md from the rule objects (the build must be current).
import fs from 'node:fs';
import path from 'node:path';
import { RULES, ruleDoc } from '../dist/internal.js';

const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '../docs/rules');
fs.mkdirSync(dir, { recursive: true });
const index = ['# memdir lint rules', '', '| id | name | severity | fixable | description |', '|---|---|---|---|---|'];
for (const rule of RULES) {
  fs.writeFileSync(path.join(dir, `${rule.id}.md`), ruleDoc(rule));
  index.push(`| [${rule.id}](${rule.id}.md) | ${rule.name} | ${rule.severity} | ${rule.fixable ? 'yes' : ''} | ${rule.description.replace(/\|/g, '\\|')} |`);
}
fs.writeFileSync(path.join(dir, 'README.md'), `${index.join('\n')}\n`);
console.log(`wrote ${RULES.length} rule pages to ${dir}`);
