// Record, per trufflehog provider of the DEV corpus, which examples the working tree's rules block and which
// negatives they flag (errors only), into test/fixtures/secrets-dev/expected.json:
//   node bench/secrets/record-dev.js
// The unit tests hold the rules to it per provider: a recorded catch stays caught, no negative beyond the
// recorded ones is flagged. Rerun after a rule change that moves either, and review the diff.
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../lib.js';
import { scanner } from '../secrets.bench.js';

const scan = await scanner();
const corpus = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-dev/trufflehog-detector-tests.json'), 'utf8'));
const found = (text) => scan.findSecrets(text).length > 0;
const indices = (list) => list.flatMap((text, i) => (found(text) ? [i] : []));
const providers = {};
for (const [name, p] of Object.entries(corpus.providers)) providers[name] = { caught: indices(p.examples), flagged: indices(p.negatives) };
const target = path.join(root, 'test/fixtures/secrets-dev/expected.json');
fs.writeFileSync(target, `${JSON.stringify({ what: 'per trufflehog provider: indices of the examples blocked and of the negatives flagged (errors)', providers })}\n`);
const sum = (key) => Object.values(providers).reduce((n, p) => n + p[key].length, 0);
process.stdout.write(`${sum('caught')} examples caught, ${sum('flagged')} negatives flagged → ${path.relative(root, target)}\n`);
