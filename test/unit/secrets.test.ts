import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandExample, findSecrets, gitleaksSecretRules, isPlaceholderToken, memdirRules, redact, redactOutput, redactSecrets, secretKeywords, secretRules } from '../../src/core/secrets.js';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { lintDirectory } from '../../src/lint/engine.js';
import { rawDirectory } from '../../src/core/dir-model.js';
import { sharedFixtures } from '../helpers/fixtures.js';
import { parse } from 'smol-toml';
import { BETTERLEAKS_PATH, celFilter, generate, re2ToJs, TABLE_PATH, TOML_PATH } from '../../scripts/generate-secret-rules.js';

const GITLEAKS_SECRET_RULES = gitleaksSecretRules();
const MEMDIR_RULES = memdirRules();
const SECRET_RULES = secretRules();
const KEYWORDS = secretKeywords();
const secretsCorpus = path.join(sharedFixtures, 'secrets');
const corpus = (file: string) => fs.readFileSync(path.join(secretsCorpus, file), 'utf8');
const ids = (text: string) => [...new Set(findSecrets(text).map((h) => h.rule.id))].sort();
const allIds = (text: string) => [...new Set(findSecrets(text, { warnings: true }).map((h) => h.rule.id))].sort();
// Templates for a few gitleaks formats (gitleaks' config holds no examples); memdir's own rules carry theirs.
const TEMPLATES: Record<string, string> = { 'github-pat': 'ghp_{an:36}', 'npm-access-token': 'npm_{an:36}' };
const example = (id: string) => expandExample(TEMPLATES[id] ?? MEMDIR_RULES.find((r) => r.id === id)!.examples!.hit[0]!);

describe('rules generated from gitleaks', () => {
  test('the committed table is what the script makes of the vendored gitleaks.toml and betterleaks.toml', () => {
    const { text, rules, dropped } = generate(fs.readFileSync(TOML_PATH, 'utf8'));
    expect(fs.readFileSync(TABLE_PATH, 'utf8')).toBe(text);
    // gitleaks' 222 rules but those bound to other file kinds (PHP, Terraform, YAML, nuget.config, .p12 names): 217;
    // betterleaks' 194 ids gitleaks lacks but the identifiers it does not report alone, filters memdir cannot
    // read and a connection-URI rule memdir's covers: 159.
    expect(rules.length).toBe(217 + 159);
    expect(dropped.filter((d) => !d.includes('(betterleaks)'))).toHaveLength(5);
    expect(GITLEAKS_SECRET_RULES.length).toBe(376);
  });
  test("betterleaks' CEL filters as an entropy floor, allowlists and stopwords", () => {
    expect(celFilter('entropy(finding["secret"]) <= 3.5')).toEqual({ entropy: 3.5, allowlists: [] });
    expect(celFilter('filter.entropy(finding["secret"]) < 3 || matchesAny(finding["line"], [`a|b`, `c`]) || containsAny(finding["secret"], ["x"])')).toEqual({
      entropy: 3,
      allowlists: [{ regexTarget: 'line', regexes: ['a|b', 'c'] }, { stopwords: ['x'] }],
    });
    // A clause on the file's path never applies to a memory file.
    expect(celFilter('entropy(finding["secret"]) < 3 || matchesAny(get(attributes, "path", ""), [`\\.go$`])')).toEqual({ entropy: 3, allowlists: [] });
    // A requirement (a negated match) is no allowlist: the rule is left out rather than loosened.
    expect(() => celFilter('!matchesAny(finding["secret"], [`^a`])')).toThrow();
  });
  test('RE2 constructs JavaScript lacks are rewritten', () => {
    expect(re2ToJs('(?i)abc[a-z]')).toEqual({ source: 'abc[a-z]', flags: 'i' });
    // (?i) in the middle: the letters after it, to the end of its group, in both cases.
    expect(re2ToJs(String.raw`\b(p8e-(?i)[a-z0-9]{32})x`)).toEqual({ source: String.raw`\b(p8e-[a-z0-9A-Z]{32})x`, flags: '' });
    expect(re2ToJs('(?i:ab)c')).toEqual({ source: '(?:[aA][bB])c', flags: '' });
    // (?-i:…) inside (?i): the pattern is expanded rather than given the i flag.
    expect(re2ToJs('(?i)a(?-i:B)')).toEqual({ source: '[aA](?:B)', flags: '' });
    expect(re2ToJs(String.raw`(?P<key>[[:alnum:]]+)\z`)).toEqual({ source: '(?<key>[A-Za-z0-9]+)$', flags: '' });
    expect(re2ToJs('(?s:a.b)')).toEqual({ source: String.raw`(?:a[\s\S]b)`, flags: '' });
    expect(re2ToJs('[^]]+')).toEqual({ source: String.raw`[^\]]+`, flags: '' });
    expect(() => re2ToJs(String.raw`\pL`)).toThrow();
  });
  test('a keyword-context rule without an entropy floor and the generic rule are warnings; formats are errors', () => {
    const severity = (id: string) => GITLEAKS_SECRET_RULES.find((r) => r.id === id)!.severity;
    expect(severity('generic-api-key')).toBe('warning');
    expect(severity('adafruit-api-key')).toBe('warning');
    expect(severity('github-pat')).toBe('error');
    expect(severity('aws-access-token')).toBe('error');
  });
  test('entropy floor, stopwords and allowlists as gitleaks applies them', () => {
    // The same AWS key shape: AWS's documented example is allowlisted, a low-entropy one is below the floor.
    expect(ids(`key ${'AKIA'}QYLPMN5HHHBKZV7E end`)).toEqual(['aws-access-token']);
    expect(ids(`key ${'AKIA'}IOSFODNN7EXAMPLE end`)).toEqual([]);
    expect(ids(`key ${'AKIA'}AAAAAAAAAAAAAAAA end`)).toEqual([]);
  });
});

describe("gitleaks' own rule examples (test/fixtures/secrets-gitleaks)", () => {
  const examples = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/secrets-gitleaks/examples.json'), 'utf8')) as {
    rules: Record<string, { tps: string[]; fps: string[] }>;
  };
  // Rules generated from gitleaks' own config (gcp-service-account has examples but no rule in it).
  const fromGitleaks = new Set((parse(fs.readFileSync(TOML_PATH, 'utf8')).rules as Array<{ id: string }>).map((r) => r.id));
  const generated = new Set(GITLEAKS_SECRET_RULES.filter((r) => fromGitleaks.has(r.id)).map((r) => r.id));
  const cases = Object.entries(examples.rules).filter(([id]) => generated.has(id));
  test('the examples are there', () => expect(cases.length).toBeGreaterThan(65));
  test.each(cases)('%s: every true positive found, no false positive found by it', (id, { tps, fps }) => {
    // A true positive spelled as a placeholder (…EXAMPLE…, …fake…) is one for gitleaks, none for memdir (isPlaceholderToken).
    for (const tp of tps) {
      const placeholder = tp.split(/[\s"'=:]+/).some(isPlaceholderToken);
      expect(findSecrets(tp, { warnings: true }).length > 0 || placeholder, tp).toBe(true);
    }
    for (const fp of fps)
      expect(
        findSecrets(fp, { warnings: true }).filter((h) => h.rule.id === id),
        fp,
      ).toEqual([]);
  });
});

describe('memdir rules', () => {
  test('unique ids; each own rule with true- and false-positive examples', () => {
    expect(SECRET_RULES.filter((r) => r.severity === 'error').length).toBeGreaterThanOrEqual(35);
    expect(new Set(SECRET_RULES.map((r) => r.id)).size).toBe(SECRET_RULES.length);
    for (const rule of MEMDIR_RULES) {
      expect(rule.examples!.hit.length, rule.id).toBeGreaterThan(0);
      expect(rule.examples!.miss.length, rule.id).toBeGreaterThan(0);
    }
  });
  test.each(MEMDIR_RULES.map((r) => [r.id, r] as const))('%s: its examples hit, its near misses match no rule', (_id, rule) => {
    for (const template of rule.examples!.hit) {
      const token = expandExample(template);
      const hits = findSecrets(`config\n  value: ${token} end\n`);
      expect(hits, template).toHaveLength(1);
      // The capture group is the secret: redaction keeps the context around it.
      expect(redact(`value: ${token} end`), template).toMatch(/^value: .*\[REDACTED\].*( end)?$/);
    }
    for (const template of rule.examples!.miss) expect(allIds(`value: ${expandExample(template)}\n`), template).toEqual([]);
  });
  test('keywords are lowercase; overlapping ones and those that begin others are all found', () => {
    for (const keyword of KEYWORDS) expect(keyword).toBe(keyword.toLowerCase());
    // `lin_api_` (Linear) holds the start of `api_key`.
    expect(ids(`lin_api_key = ${expandExample('{an:24}')}9`)).toEqual(['keyword-credential']);
    expect(KEYWORDS.some((a) => KEYWORDS.some((b) => a !== b && b.startsWith(a)))).toBe(true);
    expect(ids(`token ${example('github-pat')}`)).toEqual(['github-pat']);
  });
  test('a keyword-plus-value rule redacts only the value', () => {
    const value = expandExample('{b64:40}');
    expect(redact(`aws_secret_access_key = ${value}\n`)).toBe('aws_secret_access_key = [REDACTED]\n');
    expect(redactSecrets('nothing here')).toBe('nothing here');
  });
  test('a private key block is redacted whole; without its END line, to the end of the text', () => {
    const block = expandExample(MEMDIR_RULES.find((r) => r.id === 'private-key-block')!.examples!.hit[1]!);
    expect(redact(`before\n${block}\nafter`)).toBe('before\n[REDACTED]\nafter');
    const unterminated = block.replace(/\n-----END.*$/, '');
    expect(redact(`before\n${unterminated}\nmore key lines\n`)).toBe('before\n[REDACTED]');
  });
  test('memdir:allow-secret opts out its own line only', () => {
    const token = example('github-pat');
    expect(ids(`ci token ${token} <!-- memdir:allow-secret -->\n`)).toEqual([]);
    expect(ids(`ci token ${token} <!-- memdir:allow-secret -->\nother ${token}\n`)).toEqual(['github-pat']);
  });
  test('the Anthropic OAuth placeholder is not a secret', () => {
    expect(allIds('export CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-...\n')).toEqual([]);
    expect(ids(`export CLAUDE_CODE_OAUTH_TOKEN=${example('anthropic-oauth-token')}\n`)).toEqual(['anthropic-oauth-token']);
  });
});

describe("betterleaks' own rule examples for the rules gitleaks lacks (test/fixtures/secrets-betterleaks)", () => {
  const examples = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/secrets-betterleaks/examples.json'), 'utf8')) as {
    rules: Record<string, { tps: string[]; fps: string[] }>;
  };
  const fromGitleaks = new Set((parse(fs.readFileSync(TOML_PATH, 'utf8')).rules as Array<{ id: string }>).map((r) => r.id));
  const fromBetterleaks = new Set((parse(fs.readFileSync(BETTERLEAKS_PATH, 'utf8')).rules as Array<{ id: string }>).map((r) => r.id));
  const generated = new Set(GITLEAKS_SECRET_RULES.filter((r) => fromBetterleaks.has(r.id) && !fromGitleaks.has(r.id)).map((r) => r.id));
  const cases = Object.entries(examples.rules).filter(([id]) => generated.has(id));
  test('the examples are there', () => expect(cases.length).toBeGreaterThan(120));
  test.each(cases)('%s: every true positive found, no false positive found by it', (id, { tps, fps }) => {
    for (const tp of tps) {
      const placeholder = tp.split(/[\s"'=:]+/).some(isPlaceholderToken);
      expect(findSecrets(tp, { warnings: true }).length > 0 || placeholder, tp).toBe(true);
    }
    for (const fp of fps)
      expect(
        findSecrets(fp, { warnings: true }).filter((h) => h.rule.id === id),
        fp,
      ).toEqual([]);
  });
});

describe("trufflehog's detector tests (DEV corpus), per provider, against the recorded results", () => {
  const dev = path.join(import.meta.dirname, '../fixtures/secrets-dev');
  const corpus = JSON.parse(fs.readFileSync(path.join(dev, 'trufflehog-detector-tests.json'), 'utf8')) as {
    providers: Record<string, { examples: string[]; negatives: string[] }>;
  };
  // Written by bench/secrets/record-dev.js; rerun it when a rule change moves a provider, and review the diff.
  const expected = JSON.parse(fs.readFileSync(path.join(dev, 'expected.json'), 'utf8')) as { providers: Record<string, { caught: number[]; flagged: number[] }> };
  const providers = Object.entries(corpus.providers);
  test('every provider is recorded', () => expect(Object.keys(expected.providers).sort()).toEqual(providers.map(([name]) => name).sort()));
  test.each(providers)('%s: the recorded examples are blocked, no other negative is flagged', (name, { examples, negatives }) => {
    const { caught, flagged } = expected.providers[name]!;
    for (const i of caught) expect(findSecrets(examples[i]!).length, examples[i]).toBeGreaterThan(0);
    negatives.forEach((negative, i) => {
      if (!flagged.includes(i)) expect(findSecrets(negative), negative).toEqual([]);
    });
  });
});

describe('public corpora (../shared/fixtures/secrets)', () => {
  // Every provider token example and every credential assigned to a key in the corpora, per file; files not listed are controls and give nothing.
  const expected: Record<string, string[]> = {
    // AWS's documented example keys (…EXAMPLE, …EXAMPLEKEY) and AKIATESTTESTTESTTEST are no keys (allowlist, placeholder, entropy floor).
    // A generated-looking value (mixed case and digits, 20 or more) after `key`, `secret` or a name ending in one: generic-api-key.
    'Yelp+detect-secrets/test_data/each_secret.py': ['generic-api-key', 'keyword-credential'],
    'Yelp+detect-secrets/test_data/config.yaml': ['generic-api-key'],
    'Yelp+detect-secrets/test_data/config.ini': ['generic-api-key', 'keyword-credential'],
    'Yelp+detect-secrets/test_data/config.md': ['generic-api-key'],
    'Yelp+detect-secrets/test_data/files/file_with_secrets.py': ['generic-api-key'],
    'gitleaks+gitleaks/testdata/archives/files/.env.prod': ['keyword-credential'],
    'gitleaks+gitleaks/testdata/repos/nogit/.env.prod': ['keyword-credential'],
    'Yelp+detect-secrets/test_data/files/private_key': ['private-key'],
    'gitleaks+gitleaks/testdata/repos/nogit/api.go': ['aws-access-token'],
    'gitleaks+gitleaks/testdata/repos/nogit/main.go': ['aws-access-token'],
  };
  const files = fs.readdirSync(secretsCorpus, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(secretsCorpus, f)).isFile() && !/LICENSE|\.toml$/.test(f));
  test('the corpus is there', () => expect(files.length).toBeGreaterThan(20));
  test.each(files)('%s', (file) => {
    expect(ids(corpus(file))).toEqual(expected[file] ?? []);
  });
});

describe('credentials by shape', () => {
  test('assigned to a key or inside a connection URI; placeholders and references are not', () => {
    const value = expandExample('{an:14}7');
    expect(ids(`client_secret: ${value}\n`)).toEqual(['keyword-credential']);
    expect(ids(`DATABASE_URL=postgres://app:${value}@db.internal:5432/app\n`)).toEqual(['uri-credential']);
    expect(redact(`mongodb+srv://svc:${value}@cluster0.mongodb.net/`)).toBe('mongodb+srv://svc:[REDACTED]@cluster0.mongodb.net/');
    for (const placeholder of [
      'password: <your password>',
      'client_secret: ${CLIENT_SECRET}',
      'PGPASSWORD=$(cat /run/secrets/pgpass)',
      'hashed_secret: "513e0a36963ae1e8431c"',
      'postgres://user:password@localhost/app',
    ])
      expect(ids(placeholder), placeholder).toEqual([]);
  });
});

describe('never printing the secret', () => {
  test('the lint finding names the kind; redaction removes the value', () => {
    const token = example('github-pat');
    const findings = lintDirectory(
      rawDirectory('/m', { 'reference_ci.md': `---\nname: CI\ndescription: the CI token for the deploy pipeline\ntype: reference\n---\nToken: ${token}\n` }),
      DEFAULT_CONFIG,
    ).filter((f) => f.ruleId === 'MEM020');
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toBe('possible secret (github-pat); remove it and rotate the credential');
    expect(JSON.stringify(findings)).not.toContain(token.slice(4));
    expect(redactSecrets(`Token: ${token} end`)).toBe('Token: [REDACTED] end');
  });

  test('output: text as it is; JSON string by string, so a secret behind an escape is found and the document stays valid', () => {
    const token = example('github-pat');
    const npm = example('npm-access-token');
    expect(redactOutput(`Token: ${token} end`)).toBe('Token: [REDACTED] end');
    const plain = 'no keyword in this line';
    expect(redactOutput(plain)).toBe(plain);
    expect(redactOutput(JSON.stringify({ a: 1 }), 'json')).toBe('{"a":1}');
    // After a newline (`\n` in JSON: no word boundary before the token in the JSON text), in a key, and
    // a value whose redaction in the JSON text would have cut `\"` in half.
    const value = { [`key ${token}`]: [`line\n${token}`, `password=\nab12cdEF"x`, `a\npm_${npm.slice(4)}`] };
    const json = redactOutput(JSON.stringify(value, null, 2), 'json');
    expect(JSON.parse(json)).toEqual({ 'key [REDACTED]': ['line\n[REDACTED]', 'password=\nab12cdEF"x', `a\npm_${npm.slice(4)}`] });
    // JSON lines (recall --batch), unchanged but for the secret.
    expect(redactOutput(`${JSON.stringify({ q: token })}\n${JSON.stringify({ q: 'x' })}\n`, 'json')).toBe('{"q":"[REDACTED]"}\n{"q":"x"}\n');
  });
});

describe('precision: placeholders and look-alikes', () => {
  const lines = fs
    .readFileSync(path.join(import.meta.dirname, '../fixtures/secrets-placeholders/look-alikes.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  test('the corpus is there', () => expect(lines.length).toBeGreaterThan(70));
  test.each(lines)('%s: no finding, not even a warning', (line) => {
    expect(allIds(line)).toEqual([]);
    expect(redactOutput(line)).toBe(line);
  });
});

describe('everywhere a secret can hide', () => {
  const token = example('github-pat');
  test.each([
    ['db password is hunter2Xy9!q', 'prose-credential', 'hunter2Xy9!q'],
    ['The password for the staging box is Tr0ub4dor&3x.', 'prose-credential', 'Tr0ub4dor&3x'],
    [`the token = ${expandExample('{an:20}')}9`, 'prose-credential', `${expandExample('{an:20}')}9`],
    ['mysql -u root -pS3cr3t!x app', 'cli-password', 'S3cr3t!x'],
    ['sshpass -p Kq8#vLp2Wz ssh deploy@10.0.0.5', 'cli-password', 'Kq8#vLp2Wz'],
    // In a curl command gitleaks' rule names it; elsewhere memdir's.
    [`curl -H "Authorization: Bearer ${expandExample('{an:32}')}" https://api.internal`, 'curl-auth-header', expandExample('{an:32}')],
    [`the API wants Authorization: Bearer ${expandExample('{an:32}')} on every call`, 'authorization-header', expandExample('{an:32}')],
    [`postgres://app:${expandExample('{an:14}')}7@db.internal:5432/app`, 'uri-credential', `${expandExample('{an:14}')}7`],
    [`remember the AWS secret key is ${expandExample('{b64:40}')} for the billing account`, 'aws-secret-key-prose', expandExample('{b64:40}')],
  ])('%s', (text, id, secret) => {
    expect(ids(text)).toEqual([id]);
    expect(redact(text)).toBe(text.replace(secret, '[REDACTED]'));
  });
  test('a JWT in prose', () => {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const jwt = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: '8123', name: 'deploy bot', iat: 1764806400 })}.${expandExample('{an:43}')}`;
    expect(ids(`the session cookie was ${jwt} yesterday`)).toEqual(['jwt']);
    expect(redact(`cookie ${jwt} end`)).toBe('cookie [REDACTED] end');
  });
  test('a token glued into a file name or a slug', () => {
    expect(ids(`reference_${token}.md`)).toEqual(['github-pat']);
    expect(ids(`team/project_deploy-${example('npm-access-token')}.md`)).toEqual(['npm-access-token']);
    expect(redactOutput(`team/reference_${token}.md: refused`)).toBe('team/reference_[REDACTED].md: refused');
    // A keyword after `_` in an ordinary name is no token.
    expect(ids('hashed_secret: "513e0a36963ae1e8431c"\nfeedback_api_key_rotation.md')).toEqual([]);
  });
  test('a private key block missing its END line: redacted to the end of the text', () => {
    const body = expandExample('{b64:64}\n{b64:64}\n');
    expect(redact(`notes\n-----BEGIN OPENSSH PRIVATE KEY-----\n${body}more`)).toBe('notes\n[REDACTED]');
    expect(ids(`-----BEGIN OPENSSH PRIVATE KEY-----\n${body}`)).toEqual(['private-key-block']);
  });
});

describe('shared checks of every format rule', () => {
  test('a provider-shaped placeholder is no secret', () => {
    for (const token of ['aio_xxxxxxxxxxxxxxxxxxxxxxxxxxxx', `shippo_live_${'a'.repeat(40)}`, 'hvs.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'])
      expect(findSecrets(`key ${token}\n`, { warnings: true }), token).toEqual([]);
    expect(isPlaceholderToken(expandExample('aio_{an:28}'))).toBe(false);
  });
  test('a token ends at a comma, a parenthesis, a closing tag or a full stop, not inside a file name', () => {
    const token = example('github-pat');
    for (const text of [`(${token})`, `<secret>${token}</secret>`, `{"t": ${token}, "n": 1}`, `the token is ${token}.`]) expect(ids(text), text).toEqual(['github-pat']);
    expect(allIds('video_box.ico-7a388b69018576d24b59331fd60aab0c.png')).toEqual([]);
  });
});

describe('a looser rule whose value can only be a credential is an error', () => {
  const severities = (text: string) => findSecrets(text, { warnings: true }).map((h) => `${h.rule.id}:${h.severity}`);
  test('a provider word and a varied value: error; little variety: warning', () => {
    expect(severities('algolia_key = b8e5c1f0d2a94e7a9c3f6b1d0e2a7c45\n')).toEqual(['algolia-api-key:error']);
    expect(severities('algolia_key = b8e5c1f0b8e5c1f0b8e5c1f0b8e5c1f0\n')).toEqual(['algolia-api-key:warning']);
  });
  test('after key or token: mixed case and digits, 20 or more, is an error; a hash stays a warning', () => {
    expect(severities('key="ToCynx5Se4e2PtoZxEhW7lUJcOX15c54"\n')).toEqual(['generic-api-key:error']);
    expect(severities('cache_key = 8b1118b376c313ed420e5133ba91307817ed52c2\n')).toEqual(['generic-api-key:warning']);
    expect(severities('key=smcud4y6elxx7u6q58ewwv8rq01hpi3f\n')).toEqual(['generic-api-key:error']);
    expect(findSecrets('cache_key = 8b1118b376c313ed420e5133ba91307817ed52c2\n')).toEqual([]);
  });
});

test('an upper-case generated key is a credential; an ENV_NAME is a reference', () => {
  expect(ids(`api_key='${expandExample('{AN:40}')}'\n`)).toHaveLength(1);
  expect(allIds('api_key=SCRAPING_BEE_API_KEY\n')).toEqual([]);
  expect(allIds('password = DBPASSWORD2\n')).toEqual([]);
});
