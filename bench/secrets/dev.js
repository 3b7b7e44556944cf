// npm run bench -- secrets-dev: the secret scanner on the DEV corpus, the one rules are tuned on (the held-out
// corpus of bench/secrets.bench.js is not). Sources, each frozen with its provenance:
//   - test/fixtures/secrets-dev/trufflehog-detector-tests.json: trufflehog's detector test cases (bench/secrets/freeze-dev.js)
//   - test/fixtures/secrets-gitleaks/examples.json: gitleaks' rule tps and fps
//   - test/fixtures/secrets-betterleaks/examples.json: betterleaks' rule tps and fps, for the rules gitleaks has no id for
//   - ../shared/fixtures/secrets/Yelp+detect-secrets/test_data: files with secrets and files without
// "flagged" counts any finding on a negative, whichever rule. SECRETS_DEV_MISSES=1 lists what is missed and flagged.
import fs from 'node:fs';
import path from 'node:path';
import { report, root } from '../lib.js';
import { scanner } from '../secrets.bench.js';

const BASE = process.env.SECRETS_BASE ?? 'bf6858c';
const pct = (n, d) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);

/** [source, provider, examples, negatives] groups. */
export function devCorpus() {
  const groups = [];
  const truffle = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-dev/trufflehog-detector-tests.json'), 'utf8'));
  for (const [name, p] of Object.entries(truffle.providers)) groups.push(['trufflehog', name, p.examples, p.negatives]);
  const gitleaks = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-gitleaks/examples.json'), 'utf8'));
  for (const [name, r] of Object.entries(gitleaks.rules)) groups.push(['gitleaks', name, r.tps, r.fps]);
  const betterleaks = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-betterleaks/examples.json'), 'utf8'));
  for (const [name, r] of Object.entries(betterleaks.rules)) if (!gitleaks.rules[name]) groups.push(['betterleaks', name, r.tps, r.fps]);
  const ds = path.join(root, '../shared/fixtures/secrets/Yelp+detect-secrets/test_data');
  const read = (f) => fs.readFileSync(path.join(ds, f), 'utf8');
  if (fs.existsSync(ds)) {
    groups.push([
      'detect-secrets',
      'files',
      ['each_secret.py', 'config.yaml', 'config.ini', 'config.env', 'files/file_with_secrets.py', 'files/private_key'].map(read),
      ['files/file_with_no_secrets.py', 'only_comments.yaml', 'word_list.txt', 'performance/best-songs.txt'].map(read),
    ]);
  }
  return groups;
}

export default async function secretsDev() {
  const before = await scanner(BASE);
  const after = await scanner();
  const variants = {
    before: (text) => before.findSecrets(text).length > 0,
    'after (blocked)': (text) => after.findSecrets(text).length > 0,
    'after (any)': (text) => after.findSecrets(text, { warnings: true }).length > 0,
  };
  const groups = devCorpus();
  const summary = [];
  const result = {};
  for (const source of [...new Set(groups.map((g) => g[0]))]) {
    const mine = groups.filter((g) => g[0] === source);
    const examples = mine.reduce((s, g) => s + g[2].length, 0);
    const negatives = mine.reduce((s, g) => s + g[3].length, 0);
    for (const [name, found] of Object.entries(variants)) {
      const caught = mine.reduce((s, g) => s + g[2].filter(found).length, 0);
      const flagged = mine.reduce((s, g) => s + g[3].filter(found).length, 0);
      summary.push([`${source} ${name}`, `${caught}/${examples} (${pct(caught, examples)}) · ${flagged}/${negatives} (${pct(flagged, negatives)})`]);
      result[`${source} ${name}`] = { caught: caught / examples, flagged: flagged / negatives };
    }
  }
  report(`secrets on the DEV corpus, ${BASE} vs working tree: examples caught · negatives flagged`, summary);
  if (process.env.SECRETS_DEV_MISSES) {
    const found = (t) => after.findSecrets(t, { warnings: true });
    for (const [source, name, examples, negatives] of groups) {
      for (const e of examples) if (found(e).length === 0) console.log(`MISS ${source}/${name}: ${JSON.stringify(e.trim().slice(0, 160))}`);
      for (const n of negatives) {
        const hits = found(n);
        if (hits.length > 0) console.log(`FLAG ${source}/${name} [${hits.map((h) => `${h.rule.id}:${h.rule.severity}`).join(',')}]: ${JSON.stringify(n.trim().slice(0, 160))}`);
      }
    }
  }
  return result;
}
