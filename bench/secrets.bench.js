// npm run bench -- secrets: how many of the held-out corpus's credential examples the secret scanner
// finds, and how many of its negative examples it flags, per provider, for the rules of a base commit
// (default bf6858c, the 71 hand-written rules) and for the working tree's. The corpus is frozen in
// test/fixtures/secrets-heldout (Nosey Parker's rule examples); nothing here tunes on it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { report, root } from './lib.js';

const BASE = process.env.SECRETS_BASE ?? 'bf6858c';

/** src/core/secrets.ts (and what it imports from src/core) at `commit`, or the working tree's, bundled into one module. */
export async function scanner(commit) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-secrets-bench-'));
  let entry = path.join(root, 'src/core/secrets.ts');
  if (commit) {
    const files = execFileSync('git', ['-C', root, 'ls-tree', '--name-only', commit, 'src/core/'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
    for (const file of files) {
      fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), execFileSync('git', ['-C', root, 'show', `${commit}:${file}`], { maxBuffer: 1 << 26 }));
    }
    entry = path.join(dir, 'src/core/secrets.ts');
  }
  const outfile = path.join(dir, 'secrets.mjs');
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'error' });
  const module = await import(pathToFileURL(outfile).href);
  fs.rmSync(dir, { recursive: true, force: true });
  return module;
}

const pct = (n, d) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);

/**
 * Examples caught and negatives flagged per corpus rule and in total, for each variant (a text → found?
 * function): over every rule, and over the credential rules only (`isCredential`, from the corpus's own labels).
 */
export function measure(rules, variants, isCredential) {
  const empty = () => Object.fromEntries(Object.keys(variants).map((k) => [k, { caught: 0, flagged: 0, examples: 0, negatives: 0 }]));
  const totals = { all: empty(), credential: empty() };
  const rows = [];
  for (const rule of rules) {
    const cells = [];
    const scopes = isCredential(rule) ? ['all', 'credential'] : ['all'];
    for (const [name, found] of Object.entries(variants)) {
      const caught = rule.examples.filter(found).length;
      const flagged = rule.negatives.filter(found).length;
      for (const scope of scopes) {
        const t = totals[scope][name];
        t.caught += caught;
        t.flagged += flagged;
        t.examples += rule.examples.length;
        t.negatives += rule.negatives.length;
      }
      cells.push(`${caught}/${rule.examples.length} · ${flagged}/${rule.negatives.length}`);
    }
    rows.push(`| ${rule.name} (${rule.id}) | ${isCredential(rule) ? 'yes' : 'no'} | ${cells.join(' | ')} |`);
  }
  const summary = [];
  for (const [scope, byVariant] of Object.entries(totals)) {
    for (const [name, t] of Object.entries(byVariant)) {
      summary.push([
        `${scope === 'all' ? 'all rules' : 'credential rules'}, ${name}: examples caught · negatives flagged`,
        `${t.caught}/${t.examples} (${pct(t.caught, t.examples)}) · ${t.flagged}/${t.negatives} (${pct(t.flagged, t.negatives)})`,
      ]);
    }
  }
  const table = [
    `| rule | credential | ${Object.keys(variants).join(' | ')} |`,
    `|---|---|${Object.keys(variants)
      .map(() => '---|')
      .join('')}`,
    ...rows,
  ].join('\n');
  const ratios = (byVariant) => Object.fromEntries(Object.entries(byVariant).map(([k, t]) => [k, { caught: t.caught / t.examples, flagged: t.flagged / t.negatives }]));
  return { summary, table, result: { all: ratios(totals.all), credential: ratios(totals.credential) } };
}

/** The before / after (errors) / after (errors and warnings) variants of bench/secrets*. */
export async function variants(base) {
  const before = await scanner(base);
  const after = await scanner();
  // "caught": any finding (errors and lint warnings); "blocked": a finding that refuses a save or an upload.
  return {
    before: (text) => before.findSecrets(text).length > 0,
    'after (blocked)': (text) => after.findSecrets(text).length > 0,
    'after (any)': (text) => after.findSecrets(text, { warnings: true }).length > 0,
  };
}

export default async function secrets() {
  const corpus = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-heldout/noseyparker-examples.json'), 'utf8'));
  // Nosey Parker's own label: a credential rule is one it categorises `secret` (not an identifier such as a bucket name).
  const { summary, table, result } = measure(corpus.rules, await variants(BASE), (rule) => rule.categories.includes('secret'));
  report(`secrets on Nosey Parker's examples (${corpus.source.commit.slice(0, 12)}), ${BASE} vs working tree`, summary);
  if (process.env.SECRETS_TABLE) fs.writeFileSync(process.env.SECRETS_TABLE, `${table}\n`);
  return result;
}
