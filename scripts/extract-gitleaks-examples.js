// Extract the literal example strings of gitleaks' rule generators (cmd/generate/config/rules/*.go:
// each rule's `tps` must match, its `fps` must not) into test/fixtures/secrets-gitleaks/examples.json:
//   node scripts/extract-gitleaks-examples.js <gitleaks git directory> <commit>
// or, from betterleaks (the same layout), into test/fixtures/secrets-betterleaks/examples.json:
//   node scripts/extract-gitleaks-examples.js <betterleaks git directory> <commit> betterleaks
// Only plain Go string literals are taken; examples generated at random are left out.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [gitDir, commit, project = 'gitleaks'] = process.argv.slice(2);
if (!gitDir || !commit || (project !== 'gitleaks' && project !== 'betterleaks')) {
  process.stderr.write('usage: node scripts/extract-gitleaks-examples.js <gitleaks git directory> <commit> [gitleaks|betterleaks]\n');
  process.exit(2);
}
const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
const folder = 'cmd/generate/config/rules';
const files = git('ls-tree', '--name-only', commit, `${folder}/`)
  .split('\n')
  .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));

/** The Go string literals of a `[]string{ … }` block that are whole elements (not part of an expression). */
function literals(block) {
  const out = [];
  const element = /\s*(?:\/\/[^\n]*\n\s*)*("(?:[^"\\\n]|\\.)*"|`[^`]*`)\s*(?:,|$)/y;
  let at = 0;
  while (at < block.length) {
    element.lastIndex = at;
    const m = element.exec(block);
    if (m) {
      const raw = m[1];
      out.push(raw.startsWith('`') ? raw.slice(1, -1) : JSON.parse(raw.replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1').replace(/\\'/g, "'")));
      at = element.lastIndex;
      continue;
    }
    // Not a plain literal: skip to the next top-level comma.
    let depth = 0;
    let i = at;
    for (; i < block.length; i++) {
      const c = block[i];
      if (c === '"') i = block.indexOf('"', i + 1) === -1 ? block.length : skipString(block, i);
      else if (c === '`') i = block.indexOf('`', i + 1);
      else if (c === '(' || c === '{' || c === '[') depth++;
      else if (c === ')' || c === '}' || c === ']') depth--;
      else if (c === ',' && depth === 0) break;
    }
    at = i + 1;
  }
  return out;
}

function skipString(text, open) {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

/** The body of the `[]string{` opening at `start`, to its matching brace. */
function braceBlock(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = skipString(text, i);
    else if (c === '`') i = text.indexOf('`', i + 1);
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start + 1, i);
  }
  return '';
}

const rules = {};
for (const file of files) {
  const source = git('show', `${commit}:${file}`);
  // One function per rule: `RuleID: "…"` then its tps/fps slices, up to the next `func `.
  for (const fn of source.split(/\nfunc /).slice(1)) {
    const id = /RuleID:\s*"([^"]+)"/.exec(fn)?.[1];
    if (!id) continue;
    const entry = (rules[id] ??= { file: path.basename(file), tps: [], fps: [] });
    for (const m of fn.matchAll(/\b(tps|fps)\s*(?::=|=)\s*(?:append\(\s*\1\s*,\s*)?\[\]string\s*\{/g)) {
      entry[m[1]].push(...literals(braceBlock(fn, m.index + m[0].length - 1)));
    }
  }
}
for (const id of Object.keys(rules)) if (rules[id].tps.length === 0 && rules[id].fps.length === 0) delete rules[id];
const out = {
  source: {
    repository: `https://github.com/${project}/${project}`,
    commit,
    path: folder,
    licence: `MIT (vendor/${project}/LICENSE)`,
    what: "the literal strings of each rule's tps (must match) and fps (must not)",
  },
  rules,
};
const target = path.join(path.dirname(fileURLToPath(import.meta.url)), `../test/fixtures/secrets-${project}/examples.json`);
fs.writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
const count = (key) => Object.values(rules).reduce((n, r) => n + r[key].length, 0);
process.stdout.write(`${Object.keys(rules).length} rules, ${count('tps')} true and ${count('fps')} false positives → ${path.relative(process.cwd(), target)}\n`);
