import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandExample, findSecrets, KEYWORDS, redact, redactOutput, redactSecrets, SECRET_RULES } from '../../src/core/secrets.js';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { lintDirectory } from '../../src/lint/engine.js';
import { rawDirectory } from '../../src/core/dir-model.js';
import { sharedFixtures } from '../helpers/fixtures.js';

const secretsCorpus = path.join(sharedFixtures, 'secrets');
const corpus = (file: string) => fs.readFileSync(path.join(secretsCorpus, file), 'utf8');
const ids = (text: string) => [...new Set(findSecrets(text).map((h) => h.rule.id))].sort();
const example = (id: string) => expandExample(SECRET_RULES.find((r) => r.id === id)!.examples.hit[0]!);

describe('provider rules', () => {
  test('at least 35 high-confidence rules, unique ids, each with true- and false-positive examples', () => {
    expect(SECRET_RULES.length).toBeGreaterThanOrEqual(35);
    expect(new Set(SECRET_RULES.map((r) => r.id)).size).toBe(SECRET_RULES.length);
    for (const rule of SECRET_RULES) {
      expect(rule.examples.hit.length, rule.id).toBeGreaterThan(0);
      expect(rule.examples.miss.length, rule.id).toBeGreaterThan(0);
    }
  });
  test.each(SECRET_RULES.map((r) => [r.id, r] as const))('%s: its examples hit, its near misses match no rule', (_id, rule) => {
    for (const template of rule.examples.hit) {
      const token = expandExample(template);
      const hits = findSecrets(`config\n  value: ${token} end\n`).filter((h) => h.rule.id === rule.id);
      expect(hits, template).toHaveLength(1);
      // The capture group is the secret: redaction keeps the context around it.
      expect(redact(`value: ${token} end`), template).toMatch(/^value: .*\[REDACTED\].* end$/);
    }
    for (const template of rule.examples.miss) expect(ids(`value: ${expandExample(template)}\n`), template).toEqual([]);
  });
  test('no keyword is a prefix of another: the one-pass keyword search would find only the first', () => {
    for (const a of KEYWORDS) for (const b of KEYWORDS) if (a !== b) expect(b.startsWith(a), `${a} / ${b}`).toBe(false);
  });
  test('keywords that overlap in the text are all found', () => {
    // `lin_api_` (Linear) holds the start of `api_key`.
    expect(ids(`lin_api_key = ${expandExample('{an:24}')}9`)).toEqual(['keyword-credential']);
  });
  test('a keyword-plus-value rule redacts only the value', () => {
    const value = expandExample('{an:40}');
    expect(redact(`aws_secret_access_key = ${value}\n`)).toBe('aws_secret_access_key = [REDACTED]\n');
    expect(redactSecrets('nothing here')).toBe('nothing here');
  });
  test('a private key block is redacted whole', () => {
    const block = expandExample(SECRET_RULES.find((r) => r.id === 'private-key')!.examples.hit[1]!);
    expect(redact(`before\n${block}\nafter`)).toBe('before\n[REDACTED]\nafter');
  });
  test('memdir:allow-secret opts out its own line only', () => {
    const token = example('github-pat');
    expect(ids(`ci token ${token} <!-- memdir:allow-secret -->\n`)).toEqual([]);
    expect(ids(`ci token ${token} <!-- memdir:allow-secret -->\nother ${token}\n`)).toEqual(['github-pat']);
  });
  test('the Anthropic OAuth placeholder is not a secret', () => {
    expect(ids('export CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-...\n')).toEqual([]);
    expect(ids(`export CLAUDE_CODE_OAUTH_TOKEN=${example('anthropic-oauth-token')}\n`)).toEqual(['anthropic-oauth-token']);
  });
});

describe('public corpora (../shared/fixtures/secrets)', () => {
  // Every provider token example and every credential assigned to a key in the corpora, per file; files not listed are controls and give nothing.
  const expected: Record<string, string[]> = {
    'Yelp+detect-secrets/test_data/each_secret.py': ['aws-access-key-id', 'aws-secret-access-key', 'keyword-credential'],
    'Yelp+detect-secrets/test_data/config.yaml': ['aws-access-key-id', 'keyword-credential'],
    'Yelp+detect-secrets/test_data/config.ini': ['keyword-credential'],
    'gitleaks+gitleaks/testdata/archives/files/.env.prod': ['keyword-credential'],
    'gitleaks+gitleaks/testdata/repos/nogit/.env.prod': ['keyword-credential'],
    'Yelp+detect-secrets/test_data/files/private_key': ['private-key'],
    'gitleaks+gitleaks/testdata/repos/nogit/api.go': ['aws-access-key-id'],
    'gitleaks+gitleaks/testdata/repos/nogit/main.go': ['aws-access-key-id'],
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
    expect(redact(`mongodb+srv://svc:${value}@cluster0.example.net/`)).toBe('mongodb+srv://svc:[REDACTED]@cluster0.example.net/');
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
    expect(findings[0]!.message).toBe('possible GitHub personal access token (github-pat); remove it and rotate the credential');
    expect(JSON.stringify(findings)).not.toContain(token.slice(4));
    expect(redactSecrets(`Token: ${token} end`)).toBe('Token: [REDACTED] end');
  });

  test('output: text as it is; JSON string by string, so a secret behind an escape is found and the document stays valid', () => {
    const token = example('github-pat');
    const npm = example('npm-token');
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
