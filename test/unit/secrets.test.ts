import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { findSecrets, redactSecrets, SECRET_RULES } from '../../src/core/secrets.js';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { lintDirectory } from '../../src/lint/engine.js';
import { rawDirectory } from '../../src/core/dir-model.js';
import { sharedFixtures } from '../helpers/fixtures.js';

const corpus = (file: string) => fs.readFileSync(path.join(sharedFixtures, 'secrets/Yelp+detect-secrets/test_data', file), 'utf8');
const ids = (text: string) => [...new Set(findSecrets(text).map((h) => h.rule.id))].sort();

// Built at run time so the repository holds no token-shaped strings. Deterministic filler.
const fill = (alphabet: string, n: number) => Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');
const AN = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const HEX = '0123456789abcdef';
const samples: Record<string, string> = {
  'aws-access-key-id': `key: AKIA${fill('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`,
  'aws-secret-access-key': `aws_secret_access_key = ${fill(AN, 40)}`,
  'github-pat': `ghp_${fill(AN, 36)}`,
  'github-oauth': `gho_${fill(AN, 36)}`,
  'github-app-token': `ghs_${fill(AN, 36)}`,
  'github-refresh-token': `ghr_${fill(AN, 40)}`,
  'github-fine-grained-pat': `github_pat_${fill(AN, 82)}`,
  'gitlab-pat': `glpat-${fill(AN, 20)}`,
  'gitlab-pipeline-trigger': `glptt-${fill(HEX, 40)}`,
  'gitlab-runner-token': `glrt-${fill(AN, 20)}`,
  'anthropic-api-key': `sk-ant-api03-${fill(AN, 93)}AA`,
  'openai-api-key': `sk-proj-${fill(AN, 24)}T3BlbkFJ${fill(AN, 24)}`,
  'google-api-key': `AIza${fill(AN, 35)}`,
  'google-oauth-secret': `GOCSPX-${fill(AN, 28)}`,
  'slack-bot-token': `xoxb-1234567890-1234567890123-${fill(AN, 24)}`,
  'slack-user-token': `xoxp-1234567890-1234567890123-${fill(AN, 24)}`,
  'slack-app-token': `xapp-1-A${fill('ABCDEFGHJKLMNPQRSTUVWXYZ', 10)}-1234567890-${fill(HEX, 64)}`,
  'slack-webhook': `https://hooks.slack.com/services/T${fill('ABCDEFGH', 8)}/B${fill('ABCDEFGH', 8)}/${fill(AN, 24)}`,
  'discord-webhook': `https://discord.com/api/webhooks/123456789012345678/${fill(AN, 68)}`,
  'telegram-bot-token': `123456789:AA${fill(AN, 33)}`,
  'stripe-secret-key': `sk_live_${fill(AN, 24)}`,
  'square-token': `sq0atp-${fill(AN, 22)}`,
  'shopify-token': `shpat_${fill(HEX, 32)}`,
  'twilio-api-key': `SK${fill(HEX, 32)}`,
  'sendgrid-api-key': `SG.${fill(AN, 22)}.${fill(AN, 43)}`,
  'npm-token': `npm_${fill(AN, 36)}`,
  'pypi-token': `pypi-AgEIcHlwaS5vcmc${fill(AN, 60)}`,
  'huggingface-token': `hf_${fill('abcdefghijklmnopqrstuvwxyzABCDEFGH', 34)}`,
  'digitalocean-token': `dop_v1_${fill(HEX, 64)}`,
  'linear-api-key': `lin_api_${fill(AN, 40)}`,
  'doppler-token': `dp.pt.${fill(AN, 43)}`,
  'atlassian-api-token': `ATATT3${fill(AN, 186)}`,
  'azure-storage-key': `AccountKey=${fill(AN, 86)}==`,
  'postman-api-key': `PMAK-${fill(HEX, 24)}-${fill(HEX, 34)}`,
  'databricks-token': `dapi${fill(HEX, 32)}`,
  'newrelic-key': `NRAK-${fill('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 27)}`,
  'grafana-token': `glsa_${fill(AN, 32)}_${fill(HEX, 8)}`,
  'hashicorp-vault-token': `hvs.${fill(AN, 95)}`,
  'pulumi-token': `pul-${fill(HEX, 40)}`,
  'flyio-token': `fo1_${fill(AN, 43)}`,
  'mapbox-secret-token': `sk.eyJ${fill(AN, 30)}.${fill(AN, 30)}`,
  'age-secret-key': `AGE-SECRET-KEY-1${fill('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`,
  'private-key': '-----BEGIN OPENSSH PRIVATE KEY-----',
};

describe('provider rules', () => {
  test('at least 35 high-confidence rules, each with a sample here', () => {
    expect(SECRET_RULES.length).toBeGreaterThanOrEqual(35);
    expect(Object.keys(samples).sort()).toEqual(SECRET_RULES.map((r) => r.id).sort());
  });
  test.each(Object.entries(samples))('%s matches its sample', (id, sample) => {
    expect(ids(`config\n  value: ${sample}\n`)).toContain(id);
  });
  test('ordinary prose and identifiers do not match', () => {
    expect(ids('Ask the SKU team; see docs for the dapi endpoint; AccountKey rotation is monthly; sk-learn is fine.')).toEqual([]);
  });
});

describe('real corpora (Yelp/detect-secrets test data)', () => {
  test('provider keys are found; entropy-only strings are not (by design: high confidence only)', () => {
    expect(ids(corpus('each_secret.py'))).toEqual(expect.arrayContaining(['aws-access-key-id', 'aws-secret-access-key']));
    expect(ids(corpus('files/private_key'))).toEqual(['private-key']);
    expect(ids(corpus('files/file_with_no_secrets.py'))).toEqual([]);
    expect(ids(corpus('files/file_with_secrets.py'))).toEqual([]);
  });
});

describe('never printing the secret', () => {
  test('the lint finding names the kind; redaction removes the value', () => {
    const token = samples['github-pat']!;
    const findings = lintDirectory(rawDirectory('/m', { 'reference_ci.md': `---\nname: CI\ndescription: the CI token for the deploy pipeline\ntype: reference\n---\nToken: ${token}\n` }), DEFAULT_CONFIG).filter((f) => f.ruleId === 'MEM020');
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toBe('possible GitHub personal access token (github-pat); remove it and rotate the credential');
    expect(JSON.stringify(findings)).not.toContain(token.slice(4));
    expect(redactSecrets(`Token: ${token} end`)).toBe('Token: [REDACTED] end');
  });
});
