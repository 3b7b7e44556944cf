// Freezes the DEV corpus for the secret scanner (test/fixtures/secrets-dev/trufflehog-detector-tests.json):
// every detector test case of trufflehog (pkg/detectors/<provider>/<provider>_test.go, the pattern tests
// that run offline) whose input is a string literal, or a constant holding one: `want` empty → a negative,
// else a credential example. Run once against a checkout of trufflehog; the frozen file is what the dev
// bench reads (bench/secrets/dev.js). The held-out corpus (Nosey Parker) is never read here.
//   node bench/secrets/freeze-dev.js <git dir of trufflesecurity/trufflehog> <commit>
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../lib.js';

const [gitDir, commit] = process.argv.slice(2);
const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const files = git('ls-tree', '-r', '--name-only', commit, 'pkg/detectors/')
  .split('\n')
  .filter((f) => /^pkg\/detectors\/[^/]+\/[^/]+_test\.go$/.test(f) && !f.includes('integration'));

const LITERAL = String.raw`\x60[^\x60]*\x60|"(?:[^"\\\n]|\\.)*"`;
function unquote(literal) {
  if (literal.startsWith('`')) return literal.slice(1, -1);
  try {
    return JSON.parse(literal);
  } catch {
    return undefined;
  }
}
const providers = {};
let skipped = 0;
for (const file of files) {
  const source = git('show', `${commit}:${file}`);
  const constants = new Map();
  for (const m of source.matchAll(new RegExp(String.raw`\b(\w+)\s*=\s*(${LITERAL})`, 'g'))) constants.set(m[1], unquote(m[2]));
  const cases = new RegExp(String.raw`\binput:\s*(${LITERAL}|\w+)\s*,\s*\n\s*want:\s*(nil|\[\]string\{([^}]*)\})`, 'g');
  for (const m of source.matchAll(cases)) {
    const input = /^\w+$/.test(m[1]) ? constants.get(m[1]) : unquote(m[1]);
    if (typeof input !== 'string' || input.trim() === '') {
      skipped++;
      continue;
    }
    const want = m[2] === 'nil' ? [] : [...(m[3] ?? '').matchAll(new RegExp(LITERAL, 'g'))].map((w) => unquote(w[0]));
    const provider = file.split('/')[2];
    providers[provider] ??= { file, examples: [], negatives: [] };
    (want.length > 0 ? providers[provider].examples : providers[provider].negatives).push(input);
  }
}
const out = {
  source: {
    repository: 'https://github.com/trufflesecurity/trufflehog',
    commit,
    path: 'pkg/detectors/<provider>/<provider>_test.go',
    licence: 'AGPL-3.0 (test strings used as test data only; no code copied)',
    what: 'each offline pattern test case whose input is a string literal or a constant: want empty → negatives, else examples',
  },
  providers,
};
fs.writeFileSync(path.join(root, 'test/fixtures/secrets-dev/trufflehog-detector-tests.json'), `${JSON.stringify(out, null, 1)}\n`);
const n = Object.values(providers);
console.log(`${n.length} providers, ${n.reduce((s, p) => s + p.examples.length, 0)} examples, ${n.reduce((s, p) => s + p.negatives.length, 0)} negatives, ${skipped} skipped`);
