// Freeze the second held-out secret corpus, from two public sources nobody here has tuned on. Run once,
// before measuring:
//   node bench/secrets/freeze-heldout2.js <kingfisher git directory> <kingfisher commit> <secretlint git directory> <secretlint commit>
// writes test/fixtures/secrets-heldout2/corpus.json; the bench (bench/secrets/heldout2.js) reads only that file.
//   - Kingfisher (mongodb/kingfisher, Apache-2.0): each rule's `examples` and `negative_examples` in data/rules/*.yml,
//     with the rule's `categories` and `visible` as Kingfisher labels them.
//   - secretlint (secretlint/secretlint, MIT): each snapshot case of its recommended preset's test, whole input
//     file; an example when the preset's recorded output has a message, a negative when it has none. Cases run
//     with their own .secretlintrc.json (options that switch checks off) are left out.
// A string that shares a token (20 or more token characters in a row) with the first held-out corpus or the
// DEV corpora is left out, so the corpus measures formats and contexts, not strings already seen.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

const [kfDir, kfCommit, slDir, slCommit] = process.argv.slice(2);
if (!kfDir || !kfCommit || !slDir || !slCommit) {
  process.stderr.write('usage: node bench/secrets/freeze-heldout2.js <kingfisher git dir> <commit> <secretlint git dir> <commit>\n');
  process.exit(2);
}
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const gitIn =
  (dir) =>
  (...args) =>
    execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });

// Tokens already seen: the first held-out corpus and the DEV corpora.
const TOKEN = /[A-Za-z0-9+/_=.-]{20,}/g;
const seen = new Set();
const remember = (text) => {
  for (const m of text.matchAll(TOKEN)) seen.add(m[0]);
};
const np = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-heldout/noseyparker-examples.json'), 'utf8'));
for (const r of np.rules) [...r.examples, ...r.negatives].forEach(remember);
const th = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-dev/trufflehog-detector-tests.json'), 'utf8'));
for (const p of Object.values(th.providers)) [...p.examples, ...p.negatives].forEach(remember);
const gl = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-gitleaks/examples.json'), 'utf8'));
for (const r of Object.values(gl.rules)) [...r.tps, ...r.fps].forEach(remember);
const isNew = (text) => ![...text.matchAll(TOKEN)].some((m) => seen.has(m[0]));
const dropped = { kingfisher: 0, secretlint: 0 };

// Kingfisher
const kf = gitIn(kfDir);
const kfSha = kf('rev-parse', kfCommit).trim();
const kfRules = [];
for (const file of kf('ls-tree', '--name-only', kfSha, 'data/rules/')
  .split('\n')
  .filter((f) => f.endsWith('.yml'))) {
  const doc = yaml.load(kf('show', `${kfSha}:${file}`));
  for (const rule of doc.rules ?? []) {
    const keep = (list) => (list ?? []).filter((t) => typeof t === 'string' && (isNew(t) || (dropped.kingfisher++, false)));
    const examples = keep(rule.examples);
    const negatives = keep(rule.negative_examples);
    if (examples.length === 0 && negatives.length === 0) continue;
    kfRules.push({
      source: 'kingfisher',
      file: path.basename(file),
      id: rule.id,
      name: rule.name,
      categories: rule.categories ?? [],
      visible: rule.visible !== false,
      examples,
      negatives,
    });
  }
}

// secretlint
const sl = gitIn(slDir);
const slSha = sl('rev-parse', slCommit).trim();
const snapshots = 'packages/@secretlint/secretlint-rule-preset-recommend/test/snapshots';
const slFiles = sl('ls-tree', '-r', '--name-only', slSha, `${snapshots}/`).split('\n').filter(Boolean);
const cases = new Map();
for (const file of slFiles) {
  const [rule, name, leaf] = file.slice(snapshots.length + 1).split('/');
  if (!leaf) continue;
  const key = `${rule}/${name}`;
  if (!cases.has(key)) cases.set(key, { rule, name, files: [] });
  cases.get(key).files.push(leaf);
}
const slByRule = new Map();
for (const { rule, name, files } of cases.values()) {
  const input = files.find((f) => /^input(?:\.(?:txt|md|json))?$/.test(f));
  if (!input || !files.includes('output.json') || files.includes('.secretlintrc.json')) continue;
  const text = sl('show', `${slSha}:${snapshots}/${rule}/${name}/${input}`);
  if (text.includes('\u0000')) continue;
  if (!isNew(text)) {
    dropped.secretlint++;
    continue;
  }
  const output = JSON.parse(sl('show', `${slSha}:${snapshots}/${rule}/${name}/output.json`));
  const messages = [...new Set((output.messages ?? []).map((m) => m.messageId ?? m.ruleId))];
  if (!slByRule.has(rule)) slByRule.set(rule, { source: 'secretlint', id: rule, name: rule.replace(/^secretlint-rule-/, ''), categories: [], visible: true, examples: [], negatives: [], cases: [] });
  const entry = slByRule.get(rule);
  (messages.length > 0 ? entry.examples : entry.negatives).push(text);
  entry.cases.push({ name, input, found: messages });
}

const out = {
  sources: [
    {
      name: 'kingfisher',
      repository: 'https://github.com/mongodb/kingfisher',
      commit: kfSha,
      path: 'data/rules/*.yml',
      licence: 'Apache-2.0 (LICENSE-kingfisher here; examples copied unchanged)',
      what: "each rule's `examples` and `negative_examples`, with its `categories` and `visible` labels",
    },
    {
      name: 'secretlint',
      repository: 'https://github.com/secretlint/secretlint',
      commit: slSha,
      path: `${snapshots}/<rule>/<case>/input*`,
      licence: 'MIT (LICENSE-secretlint here; inputs copied unchanged)',
      what: 'each snapshot case of the recommended preset: an example when its output.json has a message, a negative when it has none',
    },
  ],
  droppedAsSeen: dropped,
  rules: [...kfRules, ...slByRule.values()],
};
const target = path.join(root, 'test/fixtures/secrets-heldout2/corpus.json');
fs.writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
for (const source of ['kingfisher', 'secretlint']) {
  const rules = out.rules.filter((r) => r.source === source);
  const count = (key) => rules.reduce((n, r) => n + r[key].length, 0);
  process.stdout.write(`${source}: ${rules.length} rules, ${count('examples')} examples, ${count('negatives')} negatives (${dropped[source]} left out as seen)\n`);
}
