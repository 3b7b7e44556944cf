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

export default async function secrets() {
  const corpus = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-heldout/noseyparker-examples.json'), 'utf8'));
  const before = await scanner(BASE);
  const after = await scanner();
  // "caught": any finding (errors and lint warnings); "blocked": a finding that refuses a save or an upload.
  const variants = {
    before: (text) => before.findSecrets(text).length > 0,
    'after (blocked)': (text) => after.findSecrets(text).length > 0,
    'after (any)': (text) => after.findSecrets(text, { warnings: true }).length > 0,
  };
  const totals = Object.fromEntries(Object.keys(variants).map((k) => [k, { caught: 0, flagged: 0 }]));
  const rows = [];
  let examples = 0;
  let negatives = 0;
  for (const rule of corpus.rules) {
    const cells = [];
    for (const [name, found] of Object.entries(variants)) {
      const caught = rule.examples.filter(found).length;
      const flagged = rule.negatives.filter(found).length;
      totals[name].caught += caught;
      totals[name].flagged += flagged;
      cells.push(`${caught}/${rule.examples.length} · ${flagged}/${rule.negatives.length}`);
    }
    examples += rule.examples.length;
    negatives += rule.negatives.length;
    rows.push(`| ${rule.name} (${rule.id}) | ${cells.join(' | ')} |`);
  }
  const summary = Object.entries(totals).map(([name, t]) => [
    `${name}: examples caught / negatives flagged`,
    `${t.caught}/${examples} (${pct(t.caught, examples)}) · ${t.flagged}/${negatives} (${pct(t.flagged, negatives)})`,
  ]);
  report(`secrets on Nosey Parker's examples (${corpus.source.commit.slice(0, 12)}), ${BASE} vs working tree`, summary);
  const table = [
    `| rule | ${Object.keys(variants).join(' | ')} |`,
    `|---|${Object.keys(variants)
      .map(() => '---|')
      .join('')}`,
    ...rows,
  ].join('\n');
  if (process.env.SECRETS_TABLE) fs.writeFileSync(process.env.SECRETS_TABLE, `${table}\n`);
  return Object.fromEntries(Object.entries(totals).map(([k, t]) => [k, { caught: t.caught / examples, flagged: t.flagged / negatives }]));
}
