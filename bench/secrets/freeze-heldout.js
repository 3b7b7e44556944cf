// Freeze the held-out secret corpus: Nosey Parker's rule examples (praetorian-inc/noseyparker,
// Apache-2.0), which memdir's rules were never tuned on. Run once, before measuring:
//   node bench/secrets/freeze-heldout.js <noseyparker git directory> [commit]
// writes test/fixtures/secrets-heldout/noseyparker-examples.json; the bench reads only that file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml'; // gray-matter's YAML parser, already installed

const [gitDir, commit = 'HEAD'] = process.argv.slice(2);
if (!gitDir) {
  process.stderr.write('usage: node bench/secrets/freeze-heldout.js <noseyparker git directory> [commit]\n');
  process.exit(2);
}
const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
const sha = git('rev-parse', commit).trim();
const folder = 'crates/noseyparker/data/default/builtin/rules';
const files = git('ls-tree', '--name-only', sha, `${folder}/`)
  .split('\n')
  .filter((f) => f.endsWith('.yml'));
const providers = [];
for (const file of files) {
  const doc = yaml.load(git('show', `${sha}:${file}`));
  for (const rule of doc.rules ?? []) {
    const examples = rule.examples ?? [];
    const negatives = rule.negative_examples ?? [];
    if (examples.length === 0 && negatives.length === 0) continue;
    // Nosey Parker's own labels (`secret`, `identifier`, `api`, `fuzzy`…): which rules are credentials is read from these.
    providers.push({ file: path.basename(file), id: rule.id, name: rule.name, categories: rule.categories ?? [], examples, negatives });
  }
}
const out = {
  source: {
    repository: 'https://github.com/praetorian-inc/noseyparker',
    commit: sha,
    path: folder,
    licence: 'Apache-2.0 (the repository LICENSE; examples copied unchanged)',
    what: "each rule's `examples` (credentials the rule must find) and `negative_examples` (text it must not), with its `categories`",
  },
  rules: providers,
};
const target = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/secrets-heldout/noseyparker-examples.json');
fs.writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
const count = (key) => providers.reduce((n, p) => n + p[key].length, 0);
process.stdout.write(`${providers.length} rules, ${count('examples')} examples, ${count('negatives')} negative examples → ${path.relative(process.cwd(), target)}\n`);
