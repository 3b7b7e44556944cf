/**
 * High-confidence secret patterns: provider token formats with a fixed
 * prefix or structure, so a hit is almost surely a real credential. Written
 * for memdir from the providers' published token formats. A finding names
 * the rule and where it is, never the secret itself.
 */
export interface SecretRule {
  id: string;
  description: string;
  keywords: string[];
  pattern: RegExp;
}

// [id, description, keywords (a literal one of which every match contains; checked first, as gitleaks does), pattern]
const rules: Array<[string, string, string[], string]> = [
  ['aws-access-key-id', 'AWS access key ID', ['AKIA', 'ASIA', 'ABIA', 'ACCA'], String.raw`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`],
  ['aws-secret-access-key', 'AWS secret access key', ['secret', 'SECRET', 'Secret'], String.raw`(?i:aws_?secret_?access_?key)["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`],
  ['github-pat', 'GitHub personal access token', ['ghp_'], String.raw`\bghp_[A-Za-z0-9]{36}\b`],
  ['github-oauth', 'GitHub OAuth access token', ['gho_'], String.raw`\bgho_[A-Za-z0-9]{36}\b`],
  ['github-app-token', 'GitHub app installation or user token', ['ghu_', 'ghs_'], String.raw`\bgh[us]_[A-Za-z0-9]{36}\b`],
  ['github-refresh-token', 'GitHub refresh token', ['ghr_'], String.raw`\bghr_[A-Za-z0-9]{36,76}\b`],
  ['github-fine-grained-pat', 'GitHub fine-grained personal access token', ['github_pat_'], String.raw`\bgithub_pat_[A-Za-z0-9_]{82}\b`],
  ['gitlab-pat', 'GitLab personal access token', ['glpat-'], String.raw`\bglpat-[A-Za-z0-9_-]{20,}\b`],
  ['gitlab-pipeline-trigger', 'GitLab pipeline trigger token', ['glptt-'], String.raw`\bglptt-[0-9a-f]{40}\b`],
  ['gitlab-runner-token', 'GitLab runner authentication token', ['glrt-'], String.raw`\bglrt-[A-Za-z0-9_-]{20,}\b`],
  ['anthropic-api-key', 'Anthropic API key', ['sk-ant-'], String.raw`\bsk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{80,}`],
  ['openai-api-key', 'OpenAI API key', ['T3BlbkFJ'], String.raw`\bsk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}`],
  ['google-api-key', 'Google API key', ['AIza'], String.raw`\bAIza[0-9A-Za-z_-]{35}\b`],
  ['google-oauth-secret', 'Google OAuth client secret', ['GOCSPX-'], String.raw`\bGOCSPX-[A-Za-z0-9_-]{28}\b`],
  ['slack-bot-token', 'Slack bot token', ['xoxb-'], String.raw`\bxoxb-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9]{24,}\b`],
  ['slack-user-token', 'Slack user or legacy token', ['xoxp-', 'xoxe-', 'xoxs-', 'xoxa-'], String.raw`\bxox[pesa]-[0-9]{10,13}-[0-9]{10,13}-[0-9A-Za-z-]{10,}`],
  ['slack-app-token', 'Slack app-level token', ['xapp-'], String.raw`\bxapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,}\b`],
  ['slack-webhook', 'Slack incoming webhook URL', ['hooks.slack.com'], String.raw`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{40,}`],
  ['discord-webhook', 'Discord webhook URL', ['/api/webhooks/'], String.raw`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{60,}`],
  ['telegram-bot-token', 'Telegram bot token', [':AA'], String.raw`\b\d{8,10}:AA[0-9A-Za-z_-]{33}\b`],
  ['stripe-secret-key', 'Stripe secret or restricted key', ['_live_', '_test_'], String.raw`\b(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{24,}\b`],
  ['square-token', 'Square access token or OAuth secret', ['sq0atp-', 'sq0csp-', 'EAAA'], String.raw`\b(?:sq0atp-[0-9A-Za-z_-]{22}|sq0csp-[0-9A-Za-z_-]{43}|EAAA[0-9A-Za-z_-]{60})\b`],
  ['shopify-token', 'Shopify access token', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], String.raw`\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`],
  ['twilio-api-key', 'Twilio API key', ['SK'], String.raw`\bSK[0-9a-f]{32}\b`],
  ['sendgrid-api-key', 'SendGrid API key', ['SG.'], String.raw`\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b`],
  ['npm-token', 'npm access token', ['npm_'], String.raw`\bnpm_[A-Za-z0-9]{36}\b`],
  ['pypi-token', 'PyPI upload token', ['pypi-AgEIcHlwaS5vcmc'], String.raw`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`],
  ['huggingface-token', 'Hugging Face access token', ['hf_'], String.raw`\bhf_[A-Za-z]{34}\b`],
  ['digitalocean-token', 'DigitalOcean token', ['_v1_'], String.raw`\bdo[opr]_v1_[a-f0-9]{64}\b`],
  ['linear-api-key', 'Linear API key', ['lin_api_'], String.raw`\blin_api_[A-Za-z0-9]{40}\b`],
  ['doppler-token', 'Doppler token', ['dp.'], String.raw`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b`],
  ['atlassian-api-token', 'Atlassian API token', ['ATATT3'], String.raw`\bATATT3[A-Za-z0-9_\-=]{180,}`],
  ['azure-storage-key', 'Azure storage account key', ['AccountKey='], String.raw`AccountKey=[A-Za-z0-9+/]{86}==`],
  ['postman-api-key', 'Postman API key', ['PMAK-'], String.raw`\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`],
  ['databricks-token', 'Databricks access token', ['dapi'], String.raw`\bdapi[a-f0-9]{32}(?:-\d)?\b`],
  ['newrelic-key', 'New Relic user API key', ['NRAK-'], String.raw`\bNRAK-[A-Z0-9]{27}\b`],
  ['grafana-token', 'Grafana cloud or service account token', ['glc_', 'glsa_'], String.raw`\b(?:glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`],
  ['hashicorp-vault-token', 'HashiCorp Vault token', ['hvs.'], String.raw`\bhvs\.[A-Za-z0-9_-]{90,}`],
  ['pulumi-token', 'Pulumi access token', ['pul-'], String.raw`\bpul-[a-f0-9]{40}\b`],
  ['flyio-token', 'Fly.io access token', ['fo1_'], String.raw`\bfo1_[A-Za-z0-9_-]{43}\b`],
  ['mapbox-secret-token', 'Mapbox secret token', ['sk.eyJ'], String.raw`\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}`],
  ['age-secret-key', 'age encryption secret key', ['AGE-SECRET-KEY-1'], String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`],
  ['private-key', 'private key block', ['PRIVATE KEY'], String.raw`-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----`],
];

/** `(?i:…)` is not JavaScript; expand it into a case-insensitive class per letter. */
function compile(source: string): RegExp {
  const expanded = source.replace(/\(\?i:([^)]*)\)/g, (_m, body: string) =>
    `(?:${body.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`)})`,
  );
  return new RegExp(expanded, 'g');
}

export const SECRET_RULES: readonly SecretRule[] = rules.map(([id, description, keywords, source]) => ({ id, description, keywords, pattern: compile(source) }));

// One pass over the text for every keyword; most files have none and stop here.
const ANY_KEYWORD = new RegExp(
  [...new Set(SECRET_RULES.flatMap((r) => r.keywords))].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
);

export interface SecretHit {
  rule: SecretRule;
  /** Offset and length in the text (for redaction), never the secret in a message. */
  index: number;
  length: number;
}

/** Every high-confidence secret in `text`. */
export function findSecrets(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  if (!ANY_KEYWORD.test(text)) return hits;
  for (const rule of SECRET_RULES) {
    if (!rule.keywords.some((keyword) => text.includes(keyword))) continue;
    rule.pattern.lastIndex = 0;
    for (const match of text.matchAll(rule.pattern)) hits.push({ rule, index: match.index, length: match[0].length });
  }
  return hits.sort((a, b) => a.index - b.index);
}

/** The text with every secret replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let out = '';
  let at = 0;
  for (const hit of findSecrets(text)) {
    if (hit.index < at) continue;
    out += `${text.slice(at, hit.index)}[REDACTED]`;
    at = hit.index + hit.length;
  }
  return out + text.slice(at);
}
