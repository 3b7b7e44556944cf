// npm run bench -- secrets-heldout2: the secret scanner on the second held-out corpus (Kingfisher's rule
// examples and secretlint's recommended-preset snapshots, frozen in test/fixtures/secrets-heldout2 before
// any measurement), per source rule, for the rules of a base commit (default bf6858c) and the working
// tree's. Nothing here tunes on it. SECRETS_TABLE=<file> writes the per-rule table.
import fs from 'node:fs';
import path from 'node:path';
import { report, root } from '../lib.js';
import { measure, variants } from '../secrets.bench.js';

const BASE = process.env.SECRETS_BASE ?? 'bf6858c';

/** The corpus's own labels: Kingfisher's hidden helper rules and its identifier-only rules are no credentials; secretlint labels nothing. */
export const isCredential = (rule) => rule.source === 'secretlint' || (rule.visible && !(rule.categories.includes('identifier') && !rule.categories.includes('secret')));

export default async function secretsHeldout2() {
  const corpus = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-heldout2/corpus.json'), 'utf8'));
  const found = await variants(BASE);
  const result = {};
  const tables = [];
  for (const source of corpus.sources) {
    const rules = corpus.rules.filter((r) => r.source === source.name);
    const measured = measure(rules, found, isCredential);
    report(`secrets on ${source.name}'s examples (${source.commit.slice(0, 12)}), ${BASE} vs working tree`, measured.summary);
    tables.push(`### ${source.name}\n\n${measured.table}`);
    result[source.name] = measured.result;
  }
  const both = measure(corpus.rules, found, isCredential);
  report(`secrets on the second held-out corpus (both sources), ${BASE} vs working tree`, both.summary);
  result.both = both.result;
  if (process.env.SECRETS_TABLE) fs.writeFileSync(process.env.SECRETS_TABLE, `${tables.join('\n\n')}\n`);
  return result;
}
