// npm run bench -- secrets-peers: memdir's secret scanner next to maintained peers, in the same run, on
// the same held-out examples, each example scanned on its own as bench/secrets.bench.js does:
//   - secretlint with its recommended preset (@secretlint/core's lintSource, in process, no network);
//   - git-secrets with its AWS patterns (`git secrets --register-aws`, Debian's `git-secrets`), when
//     installed: every example is its own file, all scanned by one `git secrets --scan` run.
// Corpora: held-out 1 (Nosey Parker's examples) and held-out 2 split by source — Kingfisher's examples,
// and secretlint's own preset snapshots (its labels are secretlint's recorded output, so secretlint's
// figure there checks this harness rather than measures secretlint). Nothing here tunes memdir's rules.
// SECRETS_TABLE=<file> writes the per-rule tables.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { report, root } from '../lib.js';
import { measure, scanner } from '../secrets.bench.js';
import { isCredential as heldout2Credential } from './heldout2.js';

const pct = (n, d) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);

/** The texts of `rules` (examples and negatives), each once. */
const textsOf = (rules) => [...new Set(rules.flatMap((r) => [...r.examples, ...r.negatives]))];

/** secretlint's version, from its installed package. */
export function secretlintVersion() {
  return JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@secretlint/secretlint-rule-preset-recommend/package.json'), 'utf8')).version;
}

/**
 * The texts secretlint's recommended preset reports anything in, each linted alone as a Markdown file
 * (what a memory is; no rule of the preset reads the file name or extension).
 */
export async function secretlintFinds(texts) {
  const { lintSource } = await import('@secretlint/core');
  const { creator: preset } = await import('@secretlint/secretlint-rule-preset-recommend');
  const config = { rules: [{ id: preset.meta.id, rule: preset }] };
  const found = new Set();
  for (const content of texts) {
    const result = await lintSource({
      source: { content, filePath: '/memory/example.md', ext: '.md', contentType: 'text' },
      options: { config, maskSecrets: true, noPhysicFilePath: true },
    });
    if (result.messages.length > 0) found.add(content);
  }
  return found;
}

/** git-secrets' package version (or `installed`), or undefined when `git-secrets` is not on PATH. */
export function gitSecretsInstalled() {
  if (spawnSync('sh', ['-c', 'command -v git-secrets'], { encoding: 'utf8' }).status !== 0) return undefined;
  // `dpkg-query -W NAME` prints "NAME<tab>VERSION".
  return spawnSync('dpkg-query', ['-W', 'git-secrets'], { encoding: 'utf8' }).stdout?.split('\t')[1]?.trim() || 'installed';
}

/**
 * The texts git-secrets (AWS patterns and allowed examples, `--register-aws`) refuses: a scratch repository
 * with its own HOME (no ~/.aws/credentials, no global config), every text in its own file, one
 * `git secrets --scan` over all of them, a finding's file read back from its `file:line:` output.
 */
export function gitSecretsFinds(texts) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-git-secrets-'));
  try {
    const env = { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
    const run = (args) => spawnSync('git', args, { cwd: path.join(dir, 'repo'), env, encoding: 'utf8', maxBuffer: 1 << 28 });
    fs.mkdirSync(path.join(dir, 'repo/x'), { recursive: true });
    for (const step of [
      ['init', '-q'],
      ['secrets', '--register-aws'],
    ]) {
      const r = run(step);
      if (r.status !== 0) throw new Error(`git ${step.join(' ')} exited ${r.status}: ${r.stderr}`);
    }
    const files = texts.map((text, i) => {
      const file = `x/e${i}`;
      fs.writeFileSync(path.join(dir, 'repo', file), text);
      return file;
    });
    const scan = run(['secrets', '--scan', ...files]);
    // 0: nothing refused; 1: something refused (the matches on stderr). Anything else is a failure.
    if (scan.status !== 0 && scan.status !== 1) throw new Error(`git secrets --scan exited ${scan.status}: ${scan.stderr}`);
    const found = new Set();
    for (const line of scan.stderr.split('\n')) {
      const m = /^x\/e(\d+):\d+:/.exec(line);
      if (m) found.add(texts[Number(m[1])]);
    }
    if (scan.status === 1 && found.size === 0) throw new Error(`git secrets --scan refused nothing it named: ${scan.stderr.slice(0, 400)}`);
    return found;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The held-out corpora, each with its own credential labels (see the corpora's READMEs). */
export function peerCorpora() {
  const np = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-heldout/noseyparker-examples.json'), 'utf8'));
  const two = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/secrets-heldout2/corpus.json'), 'utf8'));
  const commit = (name) => two.sources.find((s) => s.name === name).commit.slice(0, 8);
  return [
    { name: `held-out 1: Nosey Parker ${np.source.commit.slice(0, 8)}`, rules: np.rules, isCredential: (rule) => rule.categories.includes('secret') },
    { name: `held-out 2: Kingfisher ${commit('kingfisher')}`, rules: two.rules.filter((r) => r.source === 'kingfisher'), isCredential: heldout2Credential },
    {
      name: `held-out 2: secretlint ${commit('secretlint')} (secretlint's own snapshots)`,
      rules: two.rules.filter((r) => r.source === 'secretlint'),
      isCredential: heldout2Credential,
      ownOf: 'secretlint',
    },
  ];
}

export default async function secretsPeers() {
  const memdir = await scanner();
  const gitSecrets = gitSecretsInstalled();
  const result = {};
  const tables = [];
  for (const corpus of peerCorpora()) {
    const texts = textsOf(corpus.rules);
    const bySecretlint = await secretlintFinds(texts);
    const byGitSecrets = gitSecrets ? gitSecretsFinds(texts) : undefined;
    const blocked = (text) => memdir.findSecrets(text).length > 0;
    const variants = {
      'memdir (blocked)': blocked,
      'memdir (any)': (text) => memdir.findSecrets(text, { warnings: true }).length > 0,
      [`secretlint ${secretlintVersion()}`]: (text) => bySecretlint.has(text),
      ...(byGitSecrets ? { [`git-secrets ${gitSecrets} (AWS)`]: (text) => byGitSecrets.has(text) } : {}),
      'memdir (blocked) or secretlint': (text) => blocked(text) || bySecretlint.has(text),
    };
    const measured = measure(corpus.rules, variants, corpus.isCredential);
    const ratios = [];
    for (const scope of ['all', 'credential']) {
      const r = measured.result[scope];
      for (const peer of Object.keys(variants).filter((k) => !k.startsWith('memdir'))) {
        if (peer.startsWith('secretlint') && corpus.ownOf === 'secretlint') continue;
        for (const mine of ['memdir (blocked)', 'memdir (any)']) {
          const ratio = (a, b) => (b === 0 ? '–' : `${(a / b).toFixed(2)}×`);
          ratios.push([
            `${scope === 'all' ? 'all rules' : 'credential rules'}, ${mine} / ${peer.split(' ')[0]}`,
            `caught ${ratio(r[mine].caught, r[peer].caught)} · flagged ${ratio(r[mine].flagged, r[peer].flagged)}`,
          ]);
        }
      }
    }
    // Breadth: of the corpus's credential rules with examples, how many a scanner catches any example of.
    const withExamples = corpus.rules.filter((rule) => corpus.isCredential(rule) && rule.examples.length > 0);
    const breadth = Object.entries(variants).map(([name, found]) => [
      `credential rules with an example caught, ${name}`,
      `${withExamples.filter((rule) => rule.examples.some(found)).length}/${withExamples.length}`,
    ]);
    // Depth: on the credential rules one scanner catches any example of (a scope chosen by that scanner's own
    // success, so it favours it), the share of their examples each catches and of their negatives each flags.
    const depth = [];
    const count = (rules, found) => {
      const caught = rules.reduce((n, rule) => n + rule.examples.filter(found).length, 0);
      const flagged = rules.reduce((n, rule) => n + rule.negatives.filter(found).length, 0);
      const examples = rules.reduce((n, rule) => n + rule.examples.length, 0);
      const negatives = rules.reduce((n, rule) => n + rule.negatives.length, 0);
      return `${caught}/${examples} (${pct(caught, examples)}) · ${flagged}/${negatives} (${pct(flagged, negatives)})`;
    };
    const scanners = Object.keys(variants).filter((k) => k !== 'memdir (any)' && !k.includes(' or '));
    for (const scopeOf of scanners) {
      const scope = withExamples.filter((rule) => rule.examples.some(variants[scopeOf]));
      for (const name of scanners) depth.push([`on the ${scope.length} rules ${scopeOf} catches: ${name}`, count(scope, variants[name])]);
    }
    // On its own snapshots secretlint must give its recorded labels back: the check that it runs here as in its tests.
    const own = corpus.ownOf === 'secretlint' ? measured.result.all[`secretlint ${secretlintVersion()}`] : undefined;
    const check = own ? [['harness check: secretlint gives its own labels', own.caught === 1 && own.flagged === 0 ? 'yes' : 'NO (a newer release, or not run as its tests run it)']] : [];
    report(`secrets on ${corpus.name}: memdir (working tree) and its peers, same run${gitSecrets ? '' : ' — git-secrets not installed (apt-get install git-secrets), left out'}`, [
      ...check,
      ...measured.summary,
      ...breadth,
      ...depth,
      ...ratios,
    ]);
    tables.push(`### ${corpus.name}\n\n${measured.table}`);
    result[corpus.name] = measured.result;
  }
  if (process.env.SECRETS_TABLE) fs.writeFileSync(process.env.SECRETS_TABLE, `${tables.join('\n\n')}\n`);
  return result;
}
