/**
 * High-confidence secret patterns: provider token formats with a fixed
 * prefix or structure, so a hit is almost surely a real credential. Written
 * for memdir from the providers' published token formats. A finding names
 * the rule and where it is, never the secret itself.
 */
export interface SecretRule {
  id: string;
  description: string;
  pattern: RegExp;
}

const rules: Array<[string, string, string]> = [
  ['aws-access-key-id', 'AWS access key ID', String.raw`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`],
  ['aws-secret-access-key', 'AWS secret access key', String.raw`(?i:aws_?secret_?access_?key)["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`],
  ['github-pat', 'GitHub personal access token', String.raw`\bghp_[A-Za-z0-9]{36}\b`],
  ['github-oauth', 'GitHub OAuth access token', String.raw`\bgho_[A-Za-z0-9]{36}\b`],
  ['github-app-token', 'GitHub app installation or user token', String.raw`\bgh[us]_[A-Za-z0-9]{36}\b`],
  ['github-refresh-token', 'GitHub refresh token', String.raw`\bghr_[A-Za-z0-9]{36,76}\b`],
  ['github-fine-grained-pat', 'GitHub fine-grained personal access token', String.raw`\bgithub_pat_[A-Za-z0-9_]{82}\b`],
  ['gitlab-pat', 'GitLab personal access token', String.raw`\bglpat-[A-Za-z0-9_-]{20,}\b`],
  ['gitlab-pipeline-trigger', 'GitLab pipeline trigger token', String.raw`\bglptt-[0-9a-f]{40}\b`],
  ['gitlab-runner-token', 'GitLab runner authentication token', String.raw`\bglrt-[A-Za-z0-9_-]{20,}\b`],
  ['anthropic-api-key', 'Anthropic API key', String.raw`\bsk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{80,}`],
  ['openai-api-key', 'OpenAI API key', String.raw`\bsk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}`],
  ['google-api-key', 'Google API key', String.raw`\bAIza[0-9A-Za-z_-]{35}\b`],
  ['google-oauth-secret', 'Google OAuth client secret', String.raw`\bGOCSPX-[A-Za-z0-9_-]{28}\b`],
  ['slack-bot-token', 'Slack bot token', String.raw`\bxoxb-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9]{24,}\b`],
  ['slack-user-token', 'Slack user or legacy token', String.raw`\bxox[pesa]-[0-9]{10,13}-[0-9]{10,13}-[0-9A-Za-z-]{10,}`],
  ['slack-app-token', 'Slack app-level token', String.raw`\bxapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,}\b`],
  ['slack-webhook', 'Slack incoming webhook URL', String.raw`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{40,}`],
  ['discord-webhook', 'Discord webhook URL', String.raw`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{60,}`],
  ['telegram-bot-token', 'Telegram bot token', String.raw`\b\d{8,10}:AA[0-9A-Za-z_-]{33}\b`],
  ['stripe-secret-key', 'Stripe secret or restricted key', String.raw`\b(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{24,}\b`],
  ['square-token', 'Square access token or OAuth secret', String.raw`\b(?:sq0atp-[0-9A-Za-z_-]{22}|sq0csp-[0-9A-Za-z_-]{43}|EAAA[0-9A-Za-z_-]{60})\b`],
  ['shopify-token', 'Shopify access token', String.raw`\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`],
  ['twilio-api-key', 'Twilio API key', String.raw`\bSK[0-9a-f]{32}\b`],
  ['sendgrid-api-key', 'SendGrid API key', String.raw`\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b`],
  ['npm-token', 'npm access token', String.raw`\bnpm_[A-Za-z0-9]{36}\b`],
  ['pypi-token', 'PyPI upload token', String.raw`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`],
  ['huggingface-token', 'Hugging Face access token', String.raw`\bhf_[A-Za-z]{34}\b`],
  ['digitalocean-token', 'DigitalOcean token', String.raw`\bdo[opr]_v1_[a-f0-9]{64}\b`],
  ['linear-api-key', 'Linear API key', String.raw`\blin_api_[A-Za-z0-9]{40}\b`],
  ['doppler-token', 'Doppler token', String.raw`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b`],
  ['atlassian-api-token', 'Atlassian API token', String.raw`\bATATT3[A-Za-z0-9_\-=]{180,}`],
  ['azure-storage-key', 'Azure storage account key', String.raw`AccountKey=[A-Za-z0-9+/]{86}==`],
  ['postman-api-key', 'Postman API key', String.raw`\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`],
  ['databricks-token', 'Databricks access token', String.raw`\bdapi[a-f0-9]{32}(?:-\d)?\b`],
  ['newrelic-key', 'New Relic user API key', String.raw`\bNRAK-[A-Z0-9]{27}\b`],
  ['grafana-token', 'Grafana cloud or service account token', String.raw`\b(?:glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`],
  ['hashicorp-vault-token', 'HashiCorp Vault token', String.raw`\bhvs\.[A-Za-z0-9_-]{90,}`],
  ['pulumi-token', 'Pulumi access token', String.raw`\bpul-[a-f0-9]{40}\b`],
  ['flyio-token', 'Fly.io access token', String.raw`\bfo1_[A-Za-z0-9_-]{43}\b`],
  ['mapbox-secret-token', 'Mapbox secret token', String.raw`\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}`],
  ['age-secret-key', 'age encryption secret key', String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`],
  ['private-key', 'private key block', String.raw`-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----`],
];

/** `(?i:…)` is not JavaScript; expand it into a case-insensitive class per letter. */
function compile(source: string): RegExp {
  const expanded = source.replace(/\(\?i:([^)]*)\)/g, (_m, body: string) =>
    `(?:${body.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`)})`,
  );
  return new RegExp(expanded, 'g');
}

export const SECRET_RULES: readonly SecretRule[] = rules.map(([id, description, source]) => ({ id, description, pattern: compile(source) }));

export interface SecretHit {
  rule: SecretRule;
  /** Offset and length in the text (for redaction), never the secret in a message. */
  index: number;
  length: number;
}

/** Every high-confidence secret in `text`. */
export function findSecrets(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const rule of SECRET_RULES) {
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
