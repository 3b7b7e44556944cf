import { escapeRegExp } from './regexp.js';

/**
 * The one secret scanner (lint MEM020, save, extract and sync use it):
 * high-confidence provider token formats with a fixed prefix or structure,
 * so a hit is almost surely a real credential; no entropy guessing. Written
 * for memdir from the providers' published token formats. A finding names
 * the rule and where it is, never the secret itself.
 */
export interface SecretRule {
  id: string;
  description: string;
  /** Literals one of which every match contains; checked before the pattern, as gitleaks does. */
  keywords: string[];
  /** Capture group 1, when present, is the secret; otherwise the whole match. */
  pattern: RegExp;
  /**
   * Own examples as templates (`{an:36}` = 36 letters and digits, see
   * expandExample): `hit` must be found by this rule, `miss` by no rule. Kept
   * as templates so the repository holds no token-shaped strings.
   */
  examples: { hit: string[]; miss: string[] };
  /** For rules that match a shape rather than a format: whether the captured value is a real credential, not a placeholder. */
  accept?: (secret: string) => boolean;
}

type RuleRow = [id: string, description: string, keywords: string[], pattern: string, hit: string[], miss: string[], accept?: (secret: string) => boolean];

/**
 * A value written where a credential goes that is a placeholder, a reference or a word,
 * not a credential: `...`, `<password>`, `${DB_PASS}`, `$(cat /run/secrets/x)`, `xxxx`,
 * `your_api_key`, `password`, an ENV_NAME, a path.
 */
function isRealCredential(value: string): boolean {
  const placeholder =
    /^[$%{<([/.*#~!]|\.\.\.|…|x{4,}|\*{3,}|^(?:your|my|the|some|example|sample|placeholder|change_?me|redacted|dummy|fake|none|null|nil|undefined|true|false|todo|tbd|secret|password|passw(?:or)?d|pass|pwd|token|api_?key|key|env)(?:[_-]|$)/i;
  if (placeholder.test(value) || /^[A-Z][A-Z0-9_]*$/.test(value) || /^(.)\1+$/.test(value)) return false;
  // A credential mixes letters with digits or symbols; words and numbers alone are not one.
  return /[A-Za-z]/.test(value) && /[\d!@#%^&*+=?]/.test(value);
}

const rules: RuleRow[] = [
  // Cloud
  ['aws-access-key-id', 'AWS access key ID', ['AKIA', 'ASIA', 'ABIA', 'ACCA'], String.raw`\b((?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b`, ['key: AKIA{b32:16}'], ['AKIA{b32:15}', 'XAKIA{b32:16}']],
  [
    'aws-secret-access-key',
    'AWS secret access key',
    ['secret', 'SECRET', 'Secret'],
    String.raw`(?i:aws_?secret_?access_?key)["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    ['aws_secret_access_key = {an:40}', 'AWS_SECRET_ACCESS_KEY: "{an:40}"'],
    ['aws_secret_access_key = {an:39}', 'the secret access key lives in vault'],
  ],
  ['azure-storage-key', 'Azure storage account key', ['AccountKey='], 'AccountKey=([A-Za-z0-9+/]{86}==)', ['AccountKey={an:86}=='], ['AccountKey rotation is monthly']],
  ['google-api-key', 'Google API key', ['AIza'], String.raw`\b(AIza[0-9A-Za-z_-]{35})\b`, ['AIza{an:35}'], ['AIza{an:20}']],
  ['google-oauth-secret', 'Google OAuth client secret', ['GOCSPX-'], String.raw`\b(GOCSPX-[A-Za-z0-9_-]{28})\b`, ['GOCSPX-{an:28}'], ['GOCSPX-{an:10}']],
  ['alibaba-access-key-id', 'Alibaba Cloud access key ID', ['LTAI'], String.raw`\b(LTAI[A-Za-z0-9]{20})\b`, ['LTAI{an:20}'], ['LTAI{an:12}']],
  ['digitalocean-token', 'DigitalOcean token', ['_v1_'], String.raw`\b(do[opr]_v1_[a-f0-9]{64})\b`, ['dop_v1_{hex:64}'], ['dop_v1_{hex:32}']],
  ['heroku-api-key', 'Heroku API key', ['HRKU-AA'], String.raw`\b(HRKU-AA[0-9A-Za-z_-]{58})\b`, ['HRKU-AA{an:58}'], ['HRKU-AA{an:20}']],
  ['flyio-token', 'Fly.io access token', ['fo1_'], String.raw`\b(fo1_[A-Za-z0-9_-]{43})\b`, ['fo1_{an:43}'], ['fo1_{an:20}']],
  ['databricks-token', 'Databricks access token', ['dapi'], String.raw`\b(dapi[a-f0-9]{32}(?:-\d)?)\b`, ['dapi{hex:32}'], ['the dapi endpoint']],
  [
    'planetscale-token',
    'PlanetScale token or password',
    ['pscale_'],
    String.raw`\b(pscale_(?:tkn|oauth|pw)_[A-Za-z0-9=._-]{32,64})\b`,
    ['pscale_tkn_{an:43}', 'pscale_pw_{an:43}'],
    ['pscale_tkn_{an:12}'],
  ],
  ['supabase-token', 'Supabase access token', ['sbp_'], String.raw`\b(sbp_[a-f0-9]{40})\b`, ['sbp_{hex:40}'], ['sbp_{hex:20}']],
  ['dynatrace-token', 'Dynatrace API token', ['dt0c01.'], String.raw`\b(dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64})\b`, ['dt0c01.{AN:24}.{AN:64}'], ['dt0c01.{AN:10}']],
  ['pulumi-token', 'Pulumi access token', ['pul-'], String.raw`\b(pul-[a-f0-9]{40})\b`, ['pul-{hex:40}'], ['pul-{hex:12}']],
  ['hashicorp-vault-token', 'HashiCorp Vault token', ['hvs.', 'hvb.'], String.raw`\b(hv[sb]\.[A-Za-z0-9_-]{90,})`, ['hvs.{an:95}'], ['hvs.{an:30}']],
  [
    'tailscale-key',
    'Tailscale auth or API key',
    ['tskey-'],
    String.raw`\b(tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,})\b`,
    ['tskey-auth-{an:12}-{an:30}'],
    ['tskey-auth-setup'],
  ],
  // AI providers
  [
    'anthropic-api-key',
    'Anthropic API key',
    ['sk-ant-api03-', 'sk-ant-admin01-'],
    String.raw`\b(sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{80,})`,
    ['sk-ant-api03-{an:93}AA', 'sk-ant-admin01-{an:93}AA'],
    ['sk-ant-api03-...', 'sk-ant-api03-{an:20}'],
  ],
  [
    'anthropic-oauth-token',
    'Anthropic OAuth token',
    ['sk-ant-oat01-', 'sk-ant-ort01-'],
    String.raw`\b(sk-ant-o[ar]t01-[A-Za-z0-9_-]{80,})`,
    ['sk-ant-oat01-{an:93}AA', 'sk-ant-ort01-{an:93}AA'],
    ['sk-ant-oat01-...', 'CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-{an:10}'],
  ],
  [
    'openai-api-key',
    'OpenAI API key',
    ['T3BlbkFJ'],
    String.raw`\b(sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,})`,
    ['sk-proj-{an:24}T3BlbkFJ{an:24}', 'sk-{an:20}T3BlbkFJ{an:20}'],
    ['sk-learn is fine', 'sk-proj-{an:40}'],
  ],
  ['openrouter-api-key', 'OpenRouter API key', ['sk-or-v1-'], String.raw`\b(sk-or-v1-[a-f0-9]{64})\b`, ['sk-or-v1-{hex:64}'], ['sk-or-v1-{hex:10}']],
  ['groq-api-key', 'Groq API key', ['gsk_'], String.raw`\b(gsk_[A-Za-z0-9]{52})\b`, ['gsk_{an:52}'], ['gsk_{an:20}']],
  ['xai-api-key', 'xAI API key', ['xai-'], String.raw`\b(xai-[A-Za-z0-9]{80})\b`, ['xai-{an:80}'], ['xai-{an:20}']],
  ['perplexity-api-key', 'Perplexity API key', ['pplx-'], String.raw`\b(pplx-[A-Za-z0-9]{48})\b`, ['pplx-{an:48}'], ['pplx-{an:12}']],
  ['replicate-api-token', 'Replicate API token', ['r8_'], String.raw`\b(r8_[A-Za-z0-9]{37})\b`, ['r8_{an:37}'], ['r8_{an:12}']],
  ['huggingface-token', 'Hugging Face access token', ['hf_', 'api_org_'], String.raw`\b((?:hf|api_org)_[A-Za-z]{34})\b`, ['hf_{az:34}', 'api_org_{az:34}'], ['hf_{az:20}']],
  // Version control, registries, CI
  ['github-pat', 'GitHub personal access token', ['ghp_'], String.raw`\b(ghp_[A-Za-z0-9]{36})\b`, ['ghp_{an:36}'], ['ghp_{an:35}', 'ghp_xxxxxxxx']],
  ['github-oauth', 'GitHub OAuth access token', ['gho_'], String.raw`\b(gho_[A-Za-z0-9]{36})\b`, ['gho_{an:36}'], ['gho_{an:20}']],
  ['github-app-token', 'GitHub app installation or user token', ['ghu_', 'ghs_'], String.raw`\b(gh[us]_[A-Za-z0-9]{36})\b`, ['ghs_{an:36}', 'ghu_{an:36}'], ['ghs_{an:20}']],
  ['github-refresh-token', 'GitHub refresh token', ['ghr_'], String.raw`\b(ghr_[A-Za-z0-9]{36,76})\b`, ['ghr_{an:40}'], ['ghr_{an:20}']],
  ['github-fine-grained-pat', 'GitHub fine-grained personal access token', ['github_pat_'], String.raw`\b(github_pat_[A-Za-z0-9_]{82})\b`, ['github_pat_{an:82}'], ['github_pat_{an:40}']],
  ['gitlab-pat', 'GitLab personal access token', ['glpat-'], String.raw`\b(glpat-[A-Za-z0-9_-]{20,})`, ['glpat-{an:20}'], ['glpat-{an:10}']],
  ['gitlab-pipeline-trigger', 'GitLab pipeline trigger token', ['glptt-'], String.raw`\b(glptt-[0-9a-f]{40})\b`, ['glptt-{hex:40}'], ['glptt-{hex:20}']],
  ['gitlab-runner-token', 'GitLab runner authentication token', ['glrt-'], String.raw`\b(glrt-[A-Za-z0-9_-]{20,})`, ['glrt-{an:20}'], ['glrt-{an:8}']],
  [
    'gitlab-deploy-token',
    'GitLab deploy, feed, SCIM or feature-flag token',
    ['gldt-', 'glft-', 'glsoat-', 'glffct-'],
    String.raw`\b((?:gldt|glft|glsoat|glffct)-[A-Za-z0-9_-]{20,})`,
    ['gldt-{an:20}', 'glft-{an:20}'],
    ['gldt-{an:8}'],
  ],
  ['gitlab-oauth-app-secret', 'GitLab OAuth application secret', ['gloas-'], String.raw`\b(gloas-[A-Za-z0-9_-]{64})`, ['gloas-{an:64}'], ['gloas-{an:20}']],
  ['gitlab-agent-token', 'GitLab Kubernetes agent token', ['glagent-'], String.raw`\b(glagent-[A-Za-z0-9_-]{50,})`, ['glagent-{an:50}'], ['glagent-{an:20}']],
  ['npm-token', 'npm access token', ['npm_'], String.raw`\b(npm_[A-Za-z0-9]{36})\b`, ['npm_{an:36}'], ['npm_{an:20}', 'npm_config_cache']],
  ['pypi-token', 'PyPI upload token', ['pypi-AgEIcHlwaS5vcmc'], String.raw`\b(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,})`, ['pypi-AgEIcHlwaS5vcmc{an:60}'], ['pypi-AgEIcHlwaS5vcmc{an:10}']],
  ['rubygems-token', 'RubyGems API key', ['rubygems_'], String.raw`\b(rubygems_[a-f0-9]{48})\b`, ['rubygems_{hex:48}'], ['rubygems_{hex:20}']],
  ['clojars-token', 'Clojars deploy token', ['CLOJARS_'], String.raw`\b(CLOJARS_[A-Za-z0-9]{60})\b`, ['CLOJARS_{an:60}'], ['CLOJARS_{an:20}']],
  ['docker-hub-pat', 'Docker Hub personal access token', ['dckr_pat_'], String.raw`\b(dckr_pat_[A-Za-z0-9_-]{27})(?![A-Za-z0-9_-])`, ['dckr_pat_{an:27}'], ['dckr_pat_{an:12}']],
  ['artifactory-api-key', 'JFrog Artifactory API key', ['AKCp'], String.raw`\b(AKCp[A-Za-z0-9]{69})\b`, ['AKCp{an:69}'], ['AKCp{an:30}']],
  ['atlassian-api-token', 'Atlassian API token', ['ATATT3'], String.raw`\b(ATATT3[A-Za-z0-9_\-=]{180,})`, ['ATATT3{an:186}'], ['ATATT3{an:40}']],
  ['linear-api-key', 'Linear API key', ['lin_api_'], String.raw`\b(lin_api_[A-Za-z0-9]{40})\b`, ['lin_api_{an:40}'], ['lin_api_{an:20}']],
  ['postman-api-key', 'Postman API key', ['PMAK-'], String.raw`\b(PMAK-[a-f0-9]{24}-[a-f0-9]{34})\b`, ['PMAK-{hex:24}-{hex:34}'], ['PMAK-{hex:24}']],
  [
    'sentry-token',
    'Sentry user or organization token',
    ['sntryu_', 'sntrys_'],
    String.raw`\b(sntryu_[a-f0-9]{64}|sntrys_eyJ[A-Za-z0-9+/=_]{60,})`,
    ['sntryu_{hex:64}', 'sntrys_eyJ{an:80}'],
    ['sntryu_{hex:20}'],
  ],
  ['newrelic-key', 'New Relic user API key', ['NRAK-'], String.raw`\b(NRAK-[A-Z0-9]{27})\b`, ['NRAK-{AN:27}'], ['NRAK-{AN:10}']],
  [
    'grafana-token',
    'Grafana cloud or service account token',
    ['glc_', 'glsa_'],
    String.raw`\b(glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`,
    ['glsa_{an:32}_{hex:8}', 'glc_{an:40}'],
    ['glsa_{an:10}'],
  ],
  ['doppler-token', 'Doppler token', ['dp.'], String.raw`\b(dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44})\b`, ['dp.pt.{an:43}'], ['dp.pt.{an:10}']],
  ['infracost-token', 'Infracost API key', ['ico-'], String.raw`\b(ico-[A-Za-z0-9]{32})\b`, ['ico-{an:32}'], ['ico-{an:12}']],
  ['readme-api-key', 'ReadMe API key', ['rdme_'], String.raw`\b(rdme_[a-z0-9]{70})\b`, ['rdme_{a0:70}'], ['rdme_{a0:20}']],
  ['onepassword-token', '1Password service account token', ['ops_eyJ'], String.raw`\b(ops_eyJ[A-Za-z0-9+/]{250,}={0,3})`, ['ops_eyJ{an:260}'], ['ops_eyJ{an:40}']],
  // Chat, mail, payments, commerce
  ['slack-bot-token', 'Slack bot token', ['xoxb-'], String.raw`\b(xoxb-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9]{24,})\b`, ['xoxb-{d:10}-{d:13}-{an:24}'], ['xoxb-{d:4}']],
  [
    'slack-user-token',
    'Slack user or legacy token',
    ['xoxp-', 'xoxe-', 'xoxs-', 'xoxa-'],
    String.raw`\b(xox[pesa]-[0-9]{10,13}-[0-9]{10,13}-[0-9A-Za-z-]{10,})`,
    ['xoxp-{d:10}-{d:13}-{an:24}'],
    ['xoxp-{d:4}'],
  ],
  ['slack-app-token', 'Slack app-level token', ['xapp-'], String.raw`\b(xapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,})\b`, ['xapp-1-A{AN:10}-{d:10}-{hex:64}'], ['xapp-1-A{AN:10}']],
  [
    'slack-webhook',
    'Slack incoming webhook URL',
    ['hooks.slack.com'],
    String.raw`(https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{40,})`,
    ['https://hooks.slack.com/services/T{AN:8}/B{AN:8}/{an:24}'],
    ['https://hooks.slack.com/services/'],
  ],
  [
    'discord-webhook',
    'Discord webhook URL',
    ['/api/webhooks/'],
    String.raw`(https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{60,})`,
    ['https://discord.com/api/webhooks/{d:18}/{an:68}'],
    ['https://discord.com/api/webhooks/{d:18}/'],
  ],
  ['telegram-bot-token', 'Telegram bot token', [':AA'], String.raw`\b(\d{8,10}:AA[0-9A-Za-z_-]{33})\b`, ['{d:9}:AA{an:33}'], ['{d:9}:AA{an:10}']],
  ['sendgrid-api-key', 'SendGrid API key', ['SG.'], String.raw`\b(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})\b`, ['SG.{an:22}.{an:43}'], ['SG.{an:22}']],
  ['brevo-api-key', 'Brevo (Sendinblue) API key', ['xkeysib-'], String.raw`\b(xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16})\b`, ['xkeysib-{hex:64}-{an:16}'], ['xkeysib-{hex:20}']],
  ['twilio-api-key', 'Twilio API key', ['SK'], String.raw`\b(SK[0-9a-f]{32})\b`, ['SK{hex:32}'], ['Ask the SKU team']],
  [
    'stripe-secret-key',
    'Stripe secret or restricted key',
    ['_live_', '_test_'],
    String.raw`\b((?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{24,})\b`,
    ['sk_live_{an:24}', 'rk_test_{an:30}'],
    ['sk_live_{an:10}', 'pk_live_{an:24}'],
  ],
  ['stripe-webhook-secret', 'Stripe webhook signing secret', ['whsec_'], String.raw`\b(whsec_[A-Za-z0-9+/]{32,})`, ['whsec_{an:32}'], ['whsec_{an:10}']],
  [
    'square-token',
    'Square access token or OAuth secret',
    ['sq0atp-', 'sq0csp-', 'EAAA'],
    String.raw`\b(sq0atp-[0-9A-Za-z_-]{22}|sq0csp-[0-9A-Za-z_-]{43}|EAAA[0-9A-Za-z_-]{60})\b`,
    ['sq0atp-{an:22}', 'sq0csp-{an:43}'],
    ['sq0atp-{an:10}'],
  ],
  ['shopify-token', 'Shopify access token', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], String.raw`\b(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})\b`, ['shpat_{hex:32}'], ['shpat_{hex:20}']],
  ['easypost-token', 'EasyPost API key', ['EZAK', 'EZTK'], String.raw`\b(EZ[AT]K[A-Za-z0-9]{54})\b`, ['EZAK{an:54}'], ['EZAK{an:20}']],
  ['shippo-token', 'Shippo API token', ['shippo_'], String.raw`\b(shippo_(?:live|test)_[a-fA-F0-9]{40})\b`, ['shippo_live_{hex:40}'], ['shippo_live_{hex:10}']],
  ['duffel-token', 'Duffel API token', ['duffel_'], String.raw`\b(duffel_(?:test|live)_[A-Za-z0-9_=-]{43})`, ['duffel_live_{an:43}'], ['duffel_live_{an:10}']],
  ['mapbox-secret-token', 'Mapbox secret token', ['sk.eyJ'], String.raw`\b(sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,})`, ['sk.eyJ{an:30}.{an:30}'], ['sk.eyJ{an:10}']],
  // Shapes: a credential assigned to a key, or inside a connection URI (the value is checked: placeholders are no secret)
  [
    'keyword-credential',
    'credential assigned to a key (password, client_secret, api_key)',
    ['secret', 'SECRET', 'Secret', 'password', 'PASSWORD', 'Password', 'passwd', 'PASSWD', 'api_key', 'API_KEY', 'apikey', 'apiKey', 'APIKEY', 'api-key', '密码'],
    String.raw`(?<![A-Za-z0-9])(?<!hashed_|hash_|public_)(?:(?i:client_secret|secret_key|secret|password|passwd|api_key|apikey|api-key)|密码)["'\x60]?[ \t]*(?:[:=：]|=>)[ \t]*["'\x60]?([^\s"'\x60,;<>)\]]{6,})`,
    ['client_secret: {an:24}', 'DB_PASSWORD={an:12}9', 'api_key = "{an:32}"', '密码：{an:10}7'],
    ['password: <your password>', 'client_secret: ${CLIENT_SECRET}', 'PGPASSWORD=$(cat /run/secrets/pgpass)', 'api_key: sk-...', 'password=required', 'secret: /run/secrets/db'],
    isRealCredential,
  ],
  [
    'uri-credential',
    'password in a connection URI',
    ['://'],
    String.raw`\b[a-z][a-z0-9+.-]{1,20}://[^\s:@/'"\x60]+:([^\s@/'"\x60]{3,})@[\w.-]+`,
    ['postgres://app:{an:16}9@db.internal:5432/app', 'mongodb+srv://svc:{an:20}@cluster0.example.net/'],
    ['postgres://user:password@localhost/app', 'mongodb+srv://user:<password>@cluster0.example.net/', 'redis://:${REDIS_PASS}@cache:6379', 'https://example.com/a:b@c'],
    isRealCredential,
  ],
  // Keys
  ['age-secret-key', 'age encryption secret key', ['AGE-SECRET-KEY-1'], '(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})', ['AGE-SECRET-KEY-1{bech:58}'], ['AGE-SECRET-KEY-1{bech:20}']],
  // The whole block, so redaction takes the key body too; a lone header still counts.
  [
    'private-key',
    'private key block',
    ['PRIVATE KEY'],
    String.raw`(-----BEGIN (?:[A-Z]+ )?PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END (?:[A-Z]+ )?PRIVATE KEY(?: BLOCK)?-----)?)`,
    ['-----BEGIN OPENSSH PRIVATE KEY-----', '-----BEGIN RSA PRIVATE KEY-----\n{b64:64}\n-----END RSA PRIVATE KEY-----'],
    ['-----BEGIN PUBLIC KEY-----', 'keep the private key in the vault'],
  ],
];

/** `(?i:…)` is not JavaScript; expand it into a case-insensitive class per letter. */
function compile(source: string): RegExp {
  const expanded = source.replace(/\(\?i:([^)]*)\)/g, (_m, body: string) => `(?:${body.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`)})`);
  return new RegExp(expanded, 'gd');
}

const ALPHABETS: Record<string, string> = {
  an: 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789',
  AN: 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789',
  a0: 'abcdefghijkmnpqrstuvwxyz0123456789',
  az: 'abcdefghijklmnopqrstuvwxyzABCDEFGH',
  hex: '0123456789abcdef',
  b32: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  b64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  bech: 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L',
  d: '0123456789',
};

/** An example template made concrete: `{an:36}` becomes 36 deterministic characters of that alphabet. */
export function expandExample(template: string): string {
  return template.replace(/\{(\w+):(\d+)\}/g, (_m, name: string, count: string) => {
    const alphabet = ALPHABETS[name]!;
    return Array.from({ length: Number(count) }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');
  });
}

export const SECRET_RULES: readonly SecretRule[] = rules.map(([id, description, keywords, source, hit, miss, accept]) => ({
  id,
  description,
  keywords,
  pattern: compile(source),
  examples: { hit, miss },
  ...(accept && { accept }),
}));

/** Every rule's keywords, sorted: V8 matches the alternation about twice as fast as unsorted. */
export const KEYWORDS: readonly string[] = [...new Set(SECRET_RULES.flatMap((r) => r.keywords))].sort();
const keywordSource = KEYWORDS.map(escapeRegExp).join('|');
// One pass over the text for every keyword; most text has none and stops here.
const ANY_KEYWORD = new RegExp(keywordSource);
const EVERY_KEYWORD = new RegExp(keywordSource, 'g');

/**
 * Where each keyword occurs in `text`, in one pass (a `String#includes` per keyword costs several
 * times more on a long output). The search resumes one character after each match, so keywords
 * that overlap are all found; none is a prefix of another (checked by the unit tests), so none
 * hides behind another one starting at the same place.
 */
function keywordsIn(text: string): Array<{ index: number; keyword: string }> {
  const found: Array<{ index: number; keyword: string }> = [];
  EVERY_KEYWORD.lastIndex = 0;
  for (let match = EVERY_KEYWORD.exec(text); match; match = EVERY_KEYWORD.exec(text)) {
    found.push({ index: match.index, keyword: match[0] });
    EVERY_KEYWORD.lastIndex = match.index + 1;
  }
  return found;
}

/** Written on a line, opts that line out of the scan (a documented test key, say). */
export const ALLOW_SECRET_MARKER = 'memdir:allow-secret';

export interface SecretHit {
  rule: SecretRule;
  /** Offset and length of the secret itself in the text (for redaction), never the secret in a message. */
  index: number;
  length: number;
}

/** Every high-confidence secret in `text`, except on lines marked `memdir:allow-secret`. */
export function findSecrets(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  const present = new Set(keywordsIn(text).map((found) => found.keyword));
  if (present.size === 0) return hits;
  for (const rule of SECRET_RULES) {
    if (!rule.keywords.some((keyword) => present.has(keyword))) continue;
    rule.pattern.lastIndex = 0;
    for (const match of text.matchAll(rule.pattern)) {
      const [start, end] = match.indices?.[1] ?? [match.index, match.index + match[0].length];
      if (rule.accept && !rule.accept(text.slice(start, end))) continue;
      hits.push({ rule, index: start, length: end - start });
    }
  }
  const kept = text.includes(ALLOW_SECRET_MARKER) ? hits.filter((hit) => !lineAt(text, hit.index).includes(ALLOW_SECRET_MARKER)) : hits;
  return kept.sort((a, b) => a.index - b.index);
}

function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? text.length : end);
}

/** The text with every secret (only the captured secret, not its context) replaced by `[REDACTED]`. */
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

export const redact = redactSecrets;

/**
 * The one redaction point of everything memdir prints or writes for people rather than as memory
 * (stdout, stderr, --json, hook answers, reports, commit messages): text is redacted as it is; in
 * JSON only the strings are, since a match in the JSON text could miss a secret behind an escape
 * (`\n`) or cut one in half. No keyword anywhere (most output): one regex test, nothing copied.
 */
export function redactOutput(text: string, format: 'text' | 'json' = 'text'): string {
  if (!ANY_KEYWORD.test(text)) return text;
  return format === 'text' ? redactSecrets(text) : redactJsonStrings(text);
}

/**
 * Valid JSON text (or JSON lines) with its string literals redacted. JSON escapes no character of a
 * keyword, so only a literal with a keyword in its text can hold a secret: the others are stepped
 * over with indexOf (a regex over every literal costs four times more on a large document).
 */
function redactJsonStrings(text: string): string {
  const keywords = keywordsIn(text).map((found) => found.index);
  let out = '';
  let copied = 0;
  let next = 0; // the first keyword not before the current literal
  for (let open = text.indexOf('"'); open !== -1 && next < keywords.length; open = text.indexOf('"', open + 1)) {
    const close = closingQuote(text, open);
    if (close === -1) break; // not JSON after all: what is left stays as it is
    while (next < keywords.length && keywords[next]! < open) next++;
    if (next < keywords.length && keywords[next]! < close) {
      const value = JSON.parse(text.slice(open, close + 1)) as string;
      const redacted = redactSecrets(value);
      if (redacted !== value) {
        out += `${text.slice(copied, open)}${JSON.stringify(redacted)}`;
        copied = close + 1;
      }
    }
    open = close;
  }
  return out + text.slice(copied);
}

/** The quote that ends the JSON string literal opening at `open` (the first not escaped by an odd run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); ; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
}
