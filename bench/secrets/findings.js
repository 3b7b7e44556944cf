// node bench/secrets/findings.js [out.json]: every finding (rule, severity, offset, length) the working tree's
// scanner reports on every text of the secret corpora (dev, held-out, placeholders, each rule's examples), with and
// without warnings, plus each text redacted for output. A change meant to make the scanner faster must leave this
// file the same: diff the outputs of before and after.
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../lib.js';
import { scanner } from '../secrets.bench.js';
import { devCorpus } from './dev.js';

/** Every text of the corpora the secret rules are measured and tested on, with where it came from. */
export function corpusTexts(scan) {
  const texts = [];
  for (const [source, name, examples, negatives] of devCorpus()) {
    for (const [i, t] of examples.entries()) texts.push([`dev ${source} ${name} example ${i}`, t]);
    for (const [i, t] of negatives.entries()) texts.push([`dev ${source} ${name} negative ${i}`, t]);
  }
  const heldout = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-heldout/noseyparker-examples.json'), 'utf8'));
  for (const rule of heldout.rules) {
    for (const [i, t] of rule.examples.entries()) texts.push([`heldout ${rule.id} example ${i}`, t]);
    for (const [i, t] of rule.negatives.entries()) texts.push([`heldout ${rule.id} negative ${i}`, t]);
  }
  const placeholders = path.join(root, 'test/fixtures/secrets-placeholders');
  for (const file of fs.existsSync(placeholders) ? fs.readdirSync(placeholders).sort() : []) {
    const full = path.join(placeholders, file);
    if (fs.statSync(full).isFile()) texts.push([`placeholders ${file}`, fs.readFileSync(full, 'utf8')]);
  }
  for (const rule of scan.secretRules()) {
    for (const [i, t] of (rule.examples?.hit ?? []).entries()) texts.push([`rule ${rule.id} hit ${i}`, scan.expandExample(t)]);
    for (const [i, t] of (rule.examples?.miss ?? []).entries()) texts.push([`rule ${rule.id} miss ${i}`, scan.expandExample(t)]);
  }
  return texts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const scan = await scanner();
  const out = [];
  const hits = (list) => list.map((h) => `${h.rule.id}:${h.severity}@${h.index}+${h.length}`).join(' ');
  for (const [where, text] of corpusTexts(scan)) {
    // Each text whole, and line by line (lint and the output filter see both shapes).
    for (const [i, t] of [text, ...text.split('\n')].entries()) {
      const errors = hits(scan.findSecrets(t));
      const all = hits(scan.findSecrets(t, { warnings: true }));
      const redacted = scan.redactOutput(t) === scan.redactSecrets(t);
      const json = scan.redactOutput(JSON.stringify({ t }), 'json');
      if (errors || all || i === 0) out.push(`${where}${i ? ` line ${i}` : ''}\t${errors}\t${all}\t${redacted}\t${json.length}`);
    }
  }
  const text = `${out.join('\n')}\n`;
  if (process.argv[2]) fs.writeFileSync(process.argv[2], text);
  else process.stdout.write(text);
}
