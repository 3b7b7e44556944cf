import type { GeneratedAllow } from './gitleaks-rules.js';
import { escapeRegExp } from './regexp.js';
import { type RunBounds, runBounds, textRuns } from './secret-gate.js';
import { type GateEntry, gitleaksGate, gitleaksTable, precomputedMemdirGate } from './secret-table.js';

/**
 * The one secret scanner (lint MEM020, save, extract, sync and every output's redaction use it):
 * gitleaks' rules, generated from its vendored config (src/core/gitleaks-rules.ts: keyword prefilter,
 * entropy floor, secret group, allowlists), and memdir's own where gitleaks has none — provider
 * formats it lacks and credentials written as a value after a word (`password = …`, "the token is
 * …", `mysql -p…`, `Authorization: Bearer …`, a connection URI), whose value must look like a
 * credential. Rules precise enough to refuse a write or an upload are errors, the looser ones lint
 * warnings. A finding names the rule and where it is, never the secret itself.
 */
export interface SecretRule {
  id: string;
  description: string;
  /** Lowercase literals one of which every match contains (in any case); checked before the pattern, as gitleaks does. */
  keywords: string[];
  pattern: RegExp;
  /**
   * `error`: precise enough to refuse a write or an upload; `warning`: lint reports it, unless
   * `promote` holds for the value (see SecretHit.severity).
   */
  severity: 'error' | 'warning';
  /** For a warning rule: the value is credential-like enough that the finding is an error after all. */
  promote?: (secret: string) => boolean;
  origin: 'gitleaks' | 'memdir';
  /** A value assigned to a word (`password = …`, "the token is …") rather than a token with its own format. */
  assigned: boolean;
  /** The capture group that is the secret; 0: the first group that matched, else the whole match. */
  secretGroup: number;
  /** Minimum Shannon entropy of the secret (bits per character); 0: none. */
  entropy: number;
  allow: SecretAllow[];
  /**
   * Own examples as templates (`{an:36}` = 36 letters and digits, see
   * expandExample): `hit` must be found by this rule, `miss` by no rule. Kept
   * as templates so the repository holds no token-shaped strings.
   */
  examples?: { hit: string[]; miss: string[] };
  /** For rules that match a shape rather than a format: whether the captured value is a real credential, not a placeholder. */
  accept?: (secret: string) => boolean;
}

/** gitleaks' allowlist: a finding whose secret, match or line matches a pattern, or whose secret holds a stopword, is none. */
export interface SecretAllow {
  target: 'secret' | 'match' | 'line';
  patterns: RegExp[];
  stopwords: string[];
}

type RuleRow = [id: string, description: string, keywords: string[], pattern: string, hit: string[], miss: string[], accept?: (secret: string) => boolean];

/**
 * A value written where a credential goes that is a placeholder, a reference or a word, not a
 * credential: `...`, `<password>`, `${DB_PASS}`, `$(cat /run/secrets/x)`, `process.env.TOKEN`,
 * `config.password`, `xxxx`, `your_api_key`, `changeme`, `example-secret-1`, an ENV_NAME, a path.
 */
export function isPlaceholder(value: string): boolean {
  return (
    /^[$%{<([/.*#~!\\]|\.\.\.|…|x{4,}|\*{3,}|<[^>]*>|\$\{|\{\{|\$\(|%\w+%/i.test(value) ||
    /^(?:your|my|the|some|a|an|example|sample|placeholder|change_?me|changeit|redacted|dummy|fake|test|none|null|nil|undefined|true|false|todo|tbd|secret|password|passw(?:or)?d|pass|pwd|token|api_?key|key|env|insert|replace|enter|put)(?:[_\-.]|$)/i.test(
      value,
    ) ||
    /example|sample|placeholder|change_?me|changeit|dummy|not_?a_?real|redacted|lorem|foobar|xxxx|your[_-]?(?:api|secret|token|key|pass)/i.test(value) ||
    /(?:process\.env|os\.environ|getenv|ENV\[|\benv\.|\bsecrets\.|\bvars\.|\bvault:|^arn:)/i.test(value) ||
    // A reference to a name: config.password, settings.DB_PASSWORD, getSecret(), an ENV_NAME, words.
    /^(?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*(?:\(\))?$|^[A-Za-z_$][\w$]*\(.*\)?$/.test(value) ||
    // An ENV_NAME, but not a generated upper-case key (16 or more, no underscore, digits scattered through it).
    (/^[A-Z][A-Z0-9_]*$/.test(value) && !(value.length >= 16 && !value.includes('_') && (value.match(/\d/g)?.length ?? 0) >= 3)) ||
    /^[a-z]+(?:[_\- ][a-z]+)*$/i.test(value) ||
    /^(.)\1+$/.test(value) ||
    /^(?:0?1234567?8?9?0?|abcdefg?h?|qwerty|asdf)/i.test(value)
  );
}

/**
 * Whether a value written after a keyword (`password = …`, "the token is …", `-p…`) looks like a
 * credential: long enough, letters mixed with digits or symbols, not a placeholder or a reference,
 * and varied enough (Shannon entropy) to be more than a word with a digit.
 */
export function looksLikeCredential(value: string, minLength = 8): boolean {
  if (value.length < minLength || isPlaceholder(value)) return false;
  if (!/[A-Za-z]/.test(value) || !/[\d!@#$%^&*+=?_~-]/.test(value)) return false;
  // Varied enough: 3 bits a character for 16 or more, less for a shorter one (8 distinct characters give 3).
  return shannonEntropy(value) >= Math.min(3, Math.log2(value.length) * 0.8);
}

/**
 * A provider-shaped token that is a placeholder, not a credential: `ghp_xxxx…`, `hvs.AAAA…`,
 * `…EXAMPLE…`, `…FAKE…`, an alphabet or digit run (`abcdefghij`, `123456789`, `abc123`). Applies to every
 * format rule (a random token holds none of these); a long one (a key block, a JWT) is left alone,
 * its base64 legitimately repeats.
 */
export function isPlaceholderToken(secret: string): boolean {
  return /x{5}|X{5}|example|fake|dummy/i.test(secret) || (secret.length <= 200 && /(.)\1{7}|abcdefghij|123456789|abc123/i.test(secret));
}

/** A line that says it shows an example: its credential-shaped values are not secrets. */
const EXAMPLE_LINE = /(?:^|\W)e\.g\.|\b(?:for example|for instance|example|sample|placeholder|dummy|fake|such as|looks like|format is|of the form)\b/i;

const credential = (minLength: number) => (value: string) => looksLikeCredential(value, minLength);
/**
 * A value assigned to a key in configuration or code (`API_KEY=…`): a provider-shaped placeholder
 * (`sk_live_abcdefghij…`, `…abc123def456…`, `a1b2c3d4-…`) there is a sample, not a credential. (A token
 * stated in a sentence — "the deploy token is …" — is refused even so: it was written to be kept.)
 */
const assignedCredential = (value: string) => looksLikeCredential(value, 8) && !isPlaceholderToken(value) && !/a1b2c3|1a2b3c/i.test(value);
/** A value after `Authorization:` or `Bearer`: a token, not a placeholder or a word. */
const tokenValue = (value: string) => !isPlaceholder(value) && /[A-Za-z]/.test(value) && /\d/.test(value) && shannonEntropy(value) >= 3;
/** A value after a provider word: 12 or more characters, letters with digits, varied, not a placeholder. */
const providerValue = (value: string) =>
  value.length >= 12 && /[A-Za-z]/.test(value) && /\d/.test(value) && !isPlaceholder(value) && !isPlaceholderToken(value) && shannonEntropy(value) >= Math.min(3.5, Math.log2(value.length) * 0.85);
/**
 * A value after a word like key or token (gitleaks' generic rule) that can only be a generated credential:
 * 20 or more characters of letters and digits, 4 bits a character, in mixed case or with letters no hash
 * has. Hex (a hash, a UUID) and words stay warnings.
 */
const randomValue = (value: string) =>
  value.length >= 20 &&
  /\d/.test(value) &&
  // mixed case; or one case with four digits or more and letters past f (24 or more: not a hash, not a UUID)
  ((/[A-Z]/.test(value) && /[a-z]/.test(value)) || (value.length >= 24 && /[g-zG-Z]/.test(value) && (value.match(/\d/g)?.length ?? 0) >= 4)) &&
  !isPlaceholder(value) &&
  !isPlaceholderToken(value) &&
  shannonEntropy(value) >= 4;
/** A Docker auth value: base64 of `user:password`, the password not a placeholder. */
const dockerAuth = (value: string) => {
  let decoded: string;
  try {
    decoded = atob(value);
  } catch {
    return false;
  }
  const colon = decoded.indexOf(':');
  const password = decoded.slice(colon + 1);
  return colon > 0 && /^[\x20-\x7e\s]+$/.test(decoded) && password.length >= 4 && !isPlaceholder(password.trim());
};
/** 40 characters of an AWS secret key: upper and lower case and digits, random-looking. */
const awsSecret = (value: string) => /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value) && !isPlaceholder(value) && shannonEntropy(value) >= 4;

const rules: RuleRow[] = [
  // Cloud
  [
    'aws-secret-access-key',
    'AWS secret access key',
    ['secret', 'SECRET', 'Secret'],
    String.raw`(?i:aws_?secret_?access_?key)["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    ['aws_secret_access_key = {b64:40}', 'AWS_SECRET_ACCESS_KEY: "{b64:40}"'],
    ['aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}', 'the secret access key lives in vault'],
    awsSecret,
  ],
  // An account key is exactly 86 base64 characters and `==`; after AccountKey= or a storage/account key name.
  [
    'azure-storage-key',
    'Azure storage account key',
    ['accountkey', 'account_key', 'account-key', 'storagekey', 'storage_key', 'storage-key'],
    String.raw`(?:AccountKey=|(?i:account[_-]?key|storage[_-]?key)[^\n]{0,20}?)(?<![A-Za-z0-9+/])([A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])`,
    ['AccountKey={an:86}==', '<account_key>{b64:86}==</account_key>', 'Cleanup.exe -storagekey {an:86}=='],
    ['AccountKey rotation is monthly', 'storage_key: {an:40}=='],
  ],
  [
    'azure-container-registry-password',
    'Azure Container Registry password',
    ['+acr'],
    String.raw`(?<![A-Za-z0-9+/])([A-Za-z0-9+/]{42}\+ACR[A-Za-z0-9]{6})(?![A-Za-z0-9+/=])`,
    ['ACRPWD={an:42}+ACR{an:6}', 'docker login r.azurecr.io -u r -p {b64:42}+ACR{an:6}'],
    ['{an:20}+ACR{an:6}', 'the +ACR suffix marks registry passwords'],
  ],
  ['google-api-key', 'Google API key', ['AIza'], String.raw`\b(AIza[0-9A-Za-z_-]{35})\b`, ['AIza{an:35}'], ['AIza{an:20}']],
  ['google-oauth-secret', 'Google OAuth client secret', ['GOCSPX-'], String.raw`\b(GOCSPX-[A-Za-z0-9_-]{28})\b`, ['GOCSPX-{an:28}'], ['GOCSPX-{an:10}']],
  ['flyio-token', 'Fly.io access token', ['fo1_'], String.raw`\b(fo1_[A-Za-z0-9_-]{43})\b`, ['fo1_{an:43}'], ['fo1_{an:20}']],
  ['supabase-token', 'Supabase access token', ['sbp_'], String.raw`\b(sbp_[a-f0-9]{40})\b`, ['sbp_{hex:40}'], ['sbp_{hex:20}']],
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
    'anthropic-oauth-token',
    'Anthropic OAuth token',
    ['sk-ant-oat01-', 'sk-ant-ort01-'],
    String.raw`\b(sk-ant-o[ar]t01-[A-Za-z0-9_-]{80,})`,
    ['sk-ant-oat01-{an:93}AA', 'sk-ant-ort01-{an:93}AA'],
    ['sk-ant-oat01-...', 'CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-{an:10}'],
  ],
  // Version control, registries, CI
  ['docker-hub-pat', 'Docker Hub personal access token', ['dckr_pat_'], String.raw`\b(dckr_pat_[A-Za-z0-9_-]{27})(?![A-Za-z0-9_-])`, ['dckr_pat_{an:27}'], ['dckr_pat_{an:12}']],
  [
    'sentry-token',
    'Sentry user or organization token',
    ['sntryu_', 'sntrys_'],
    String.raw`\b(sntryu_[a-f0-9]{64}|sntrys_eyJ[A-Za-z0-9+/=_]{60,})`,
    ['sntryu_{hex:64}', 'sntrys_eyJ{an:80}'],
    ['sntryu_{hex:20}'],
  ],
  ['newrelic-key', 'New Relic user API key', ['NRAK-'], String.raw`\b(NRAK-[A-Z0-9]{27})\b`, ['NRAK-{AN:27}'], ['NRAK-{AN:10}']],
  ['onepassword-token', '1Password service account token', ['ops_eyJ'], String.raw`\b(ops_eyJ[A-Za-z0-9+/]{250,}={0,3})`, ['ops_eyJ{an:260}'], ['ops_eyJ{an:40}']],
  // Chat, mail, payments, commerce
  [
    'discord-webhook',
    'Discord webhook URL',
    ['/api/webhooks/'],
    String.raw`(https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{60,})`,
    ['https://discord.com/api/webhooks/{d:18}/{an:68}'],
    ['https://discord.com/api/webhooks/{d:18}/'],
  ],
  ['telegram-bot-token', 'Telegram bot token', [':AA'], String.raw`\b(\d{8,10}:AA[0-9A-Za-z_-]{33})\b`, ['{d:9}:AA{an:33}'], ['{d:9}:AA{an:10}']],
  ['stripe-webhook-secret', 'Stripe webhook signing secret', ['whsec_'], String.raw`\b(whsec_[A-Za-z0-9+/]{32,})`, ['whsec_{an:32}'], ['whsec_{an:10}']],
  [
    'square-token',
    'Square access token or OAuth secret',
    ['sq0atp-', 'sq0csp-', 'EAAA'],
    String.raw`\b(sq0atp-[0-9A-Za-z_-]{22}|sq0csp-[0-9A-Za-z_-]{43}|EAAA[0-9A-Za-z_-]{60})\b`,
    ['sq0atp-{an:22}', 'sq0csp-{an:43}'],
    ['sq0atp-{an:10}'],
  ],
  ['mapbox-secret-token', 'Mapbox secret token', ['sk.eyJ'], String.raw`\b(sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,})`, ['sk.eyJ{an:30}.{an:30}'], ['sk.eyJ{an:10}']],
  // Prefixes each provider documents for its tokens, matched without a provider word nearby (gitleaks has none, or needs the word).
  ['adafruit-io-key', 'Adafruit IO key', ['aio_'], String.raw`\b(aio_[A-Za-z0-9]{28})\b`, ['aio_{an:28}'], ['aio_{an:12}']],
  ['apify-token', 'Apify API token', ['apify_api_'], String.raw`\b(apify_api_[A-Za-z0-9]{36})\b`, ['apify_api_{an:36}'], ['apify_api_{an:12}']],
  ['bitbucket-app-password', 'Bitbucket app password', ['atbb'], String.raw`\b(ATBB[A-Za-z0-9]{24,40})\b`, ['ATBB{an:32}'], ['ATBB{AN:8}']],
  ['crates-io-token', 'crates.io API token', ['cio'], String.raw`\b(cio[A-Za-z0-9]{32})\b`, ['cio{an:32}'], ['cio{an:12}']],
  ['dependency-track-key', 'Dependency-Track API key', ['odt_'], String.raw`\b(odt_[A-Za-z0-9]{32,})\b`, ['odt_{an:32}'], ['odt_{an:12}']],
  ['dropbox-short-lived-token', 'Dropbox short-lived access token', ['sl.'], String.raw`\b(sl\.(?:u\.)?[A-Za-z0-9_-]{130,})`, ['sl.{an:140}'], ['sl.{an:20}']],
  ['facebook-user-token', 'Facebook access token', ['eaa'], String.raw`\b(EAA[A-Z][A-Za-z0-9]{80,})\b`, ['EAAG{an:120}'], ['EAAG{an:30}']],
  ['figma-token', 'Figma personal access token', ['figd_'], String.raw`\b(figd_[A-Za-z0-9_-]{40})(?![A-Za-z0-9_-])`, ['figd_{an:40}'], ['figd_{an:12}']],
  [
    'langfuse-secret-key',
    'Langfuse secret key',
    ['sk-lf-'],
    String.raw`\b(sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b`,
    ['sk-lf-{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}'],
    ['sk-lf-{hex:8}'],
  ],
  ['langsmith-key', 'LangSmith API key', ['lsv2_'], String.raw`\b(lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10})\b`, ['lsv2_pt_{hex:32}_{hex:10}'], ['lsv2_pt_{hex:12}']],
  ['rootly-key', 'Rootly API key', ['rootly_'], String.raw`\b(rootly_[a-f0-9]{64})\b`, ['rootly_{hex:64}'], ['rootly_{hex:20}']],
  ['brevo-api-key', 'Brevo (Sendinblue) API key', ['xkeysib-'], String.raw`\b(xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16})\b`, ['xkeysib-{hex:64}-{an:16}'], ['xkeysib-{hex:20}']],
  ['contentful-token', 'Contentful personal access token', ['cfpat-'], String.raw`\b(CFPAT-[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])`, ['CFPAT-{an:43}'], ['CFPAT-{an:12}']],
  ['dynatrace-token', 'Dynatrace API token', ['dt0c01.'], String.raw`\b(dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64})\b`, ['dt0c01.{AN:24}.{AN:64}'], ['dt0c01.{AN:24}']],
  ['firecrawl-key', 'Firecrawl API key', ['fc-'], String.raw`(?<![\w-])(fc-[a-f0-9]{32})\b`, ['fc-{hex:32}'], ['fc-{hex:12}']],
  ['google-oauth-access-token', 'Google OAuth access token', ['ya29.'], String.raw`\b(ya29\.[A-Za-z0-9_-]{30,})`, ['ya29.{an:60}'], ['ya29.{an:12}']],
  ['google-oauth-refresh-token', 'Google OAuth refresh token', ['1//0'], String.raw`(?<![\w/])(1//0[A-Za-z0-9_-]{40,})`, ['1//0{an:60}'], ['1//0{an:12}']],
  ['mailchimp-key', 'Mailchimp API key', ['-us'], String.raw`\b([a-f0-9]{32}-us\d{1,2})\b`, ['{hex:32}-us14'], ['{hex:20}-us14']],
  ['mailgun-key', 'Mailgun private API key', ['key-'], String.raw`(?<![\w-])(key-[a-f0-9]{32})\b`, ['key-{hex:32}'], ['key-{hex:12}']],
  ['netlify-token', 'Netlify personal access token', ['nfp_'], String.raw`\b(nfp_[A-Za-z0-9]{36})\b`, ['nfp_{an:36}'], ['nfp_{an:12}']],
  [
    'newrelic-prefixed-key',
    'New Relic browser or insert key',
    ['nrjs-', 'nrii-'],
    String.raw`\b(NRJS-[a-f0-9]{19}|NRII-[A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])`,
    ['NRJS-{hex:19}', 'NRII-{an:32}'],
    ['NRJS-{hex:8}'],
  ],
  ['nuget-api-key', 'NuGet API key', ['oy2'], String.raw`\b(oy2[a-z0-9]{43})\b`, ['oy2{a0:43}'], ['oy2{a0:12}']],
  [
    'airtable-oauth-token-format',
    'Airtable OAuth access token',
    ['.v1.'],
    String.raw`\b([A-Za-z0-9]{14,20}\.v1\.[A-Za-z0-9_-]{20,}\.[a-f0-9]{64})\b`,
    ['{an:17}.v1.{an:60}.{hex:64}'],
    ['{an:17}.v1.{an:60}', 'api.v1.users.list'],
  ],
  ['spectral-token', 'SpectralOps token', ['spu-'], String.raw`\b(spu-[a-f0-9]{32})\b`, ['spu-{hex:32}'], ['spu-{hex:12}']],
  ['sonarqube-token', 'SonarQube token', ['squ_', 'sqp_', 'sqa_'], String.raw`\b(sq[upa]_[a-f0-9]{40})\b`, ['squ_{hex:40}', 'sqp_{hex:40}'], ['squ_{hex:12}']],
  ['typeform-token', 'Typeform personal access token', ['tfp_'], String.raw`\b(tfp_[A-Za-z0-9_.=-]{59})(?![A-Za-z0-9_.=-])`, ['tfp_{an:59}'], ['tfp_{an:20}']],
  [
    'azure-sas-signature',
    'Azure shared access signature',
    ['sig='],
    String.raw`\bsv=20\d\d-\d\d-\d\d&[^\s"'\x60<>]*?\bsig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})`,
    ['https://acct.blob.core.windows.net/c?sv=2022-11-02&sr=c&sp=r&sig={an:43}%3D'],
    ['https://acct.blob.core.windows.net/c?sv=2022-11-02&sr=c&sp=r&sig=<signature>'],
  ],
  // Shapes: a credential assigned to a key, or inside a connection URI (the value is checked: placeholders are no secret)
  [
    'keyword-credential',
    'credential assigned to a key (password, client_secret, api_key), also as a quoted pair ("X-Api-Key", "…")',
    ['secret', 'pass', 'pwd', 'api_key', 'apikey', 'api-key', 'authtoken', 'auth_token', 'auth-token', 'accesstoken', 'access_token', 'access-token', '密码'],
    String.raw`(?<![A-Za-z0-9])(?<!hashed_|hash_|public_)(?:(?i:client_secret|secret_key|secret|password|passwd|passphrase|pass|pwd|api_key|apikey|api-key|auth[_-]?token|access[_-]?token)|密码)(?:["'\x60]?[ \t]*(?::=|[:=：]|=>)|["'\x60][ \t]*,[ \t]*(?=["'\x60]))[ \t]*["'\x60]?([^\s"'\x60,;<>)\]]{6,})`,
    [
      'client_secret: {an:24}',
      'DB_PASSWORD={an:12}9',
      'api_key = "{an:32}"',
      '密码：{an:10}7',
      'Server=db;Uid=sa;Pwd={an:12}4;',
      'DB_PASS={an:14}2',
      'ACCESS_TOKEN={an:20}5x',
      'password := "{an:14}3"',
      'req.Header.Set("X-Api-Key", "{an:24}7")',
      '//registry.npmjs.org/:_authToken={an:12}{b64:12}9',
    ],
    [
      'password: <your password>',
      'client_secret: ${CLIENT_SECRET}',
      'PGPASSWORD=$(cat /run/secrets/pgpass)',
      'api_key: sk-...',
      'password=required',
      'secret: /run/secrets/db',
      'PWD=/home/dev/project',
      'pass: true',
      'SECRET_KEY=sk_live_abcdefghijklmnopqrstuvwxyz123456',
      'req.Header.Set("X-Api-Key", apiKey)',
      'os.getenv("API_KEY", "")',
    ],
    assignedCredential,
  ],
  [
    'uri-credential',
    'password in a connection URI',
    ['://'],
    String.raw`\b[a-z][a-z0-9+.-]{1,20}://[^\s:@/'"\x60]+:([^\s@/'"\x60]{3,})@[\w.-]+`,
    ['postgres://app:{an:16}9@db.internal:5432/app', 'mongodb+srv://svc:{b64:20}@cluster0.mongodb.net/'],
    ['postgres://user:password@localhost/app', 'mongodb+srv://user:<password>@cluster0.example.net/', 'redis://:${REDIS_PASS}@cache:6379', 'https://example.com/a:b@c'],
    credential(6),
  ],
  [
    'xml-credential',
    'credential in an XML element (<password>…</password>)',
    ['password>', 'passwd>', 'secret>', 'token>', 'key>'],
    String.raw`<(?:[\w.:-]*?)(?:(?i:password|passwd|secret|token|api_?key|apikey|access_?key|secret_?key))>\s*\{?([^<>\s{}]{8,})\}?\s*</`,
    ['<password>{an:14}7</password>', '<secret_key>{b64:40}</secret_key>'],
    ['<password>${DB_PASSWORD}</password>', '<secret>changeme</secret>', '<token></token>'],
    credential(8),
  ],
  // Credentials in plain words: "the db password is …", `mysql -p…`, an Authorization header, an AWS secret key in a sentence.
  [
    'aws-secret-key-prose',
    'AWS secret access key written in a sentence',
    ['aws'],
    String.raw`(?i:aws)[^\n]{0,40}?(?i:secret)[^\n]{0,30}?(?<![A-Za-z0-9/+=])([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    ['the AWS secret key is {b64:40}', 'our aws secret access key: {b64:40}'],
    ['the AWS secret key lives in the vault', 'AWS secret key rotation every 90 days'],
    awsSecret,
  ],
  [
    'prose-credential',
    'password, secret or token written in a sentence',
    ['password', 'passwd', 'passphrase', 'pwd', 'secret', 'token', 'key'],
    String.raw`(?<![\w-])(?:(?i:password|passwd|passphrase|pwd|secret|token|key))(?:\s+(?:for|of|on|to|in|at)(?:\s+[\w.@:/-]+){1,4}?)?\s+(?:(?i:is|was|are|=|:|->))\s+(?:(?i:now|still|set to)\s+)?["'\x60]?([^\s"'\x60]{6,}?)["'\x60]?(?=[.,;:!?)]*(?:\s|$))`,
    ['db password is {an:10}7!q', 'the token = {an:20}9', 'The password for the staging box is {an:12}4.', 'Your ACME key is {hex:32}, keep it safe'],
    [
      'the password is in 1Password',
      'the token is expired',
      'password is required',
      'the api key is stored in vault',
      'the password is <your password>',
      'the token is ${GITHUB_TOKEN}',
      'the primary key is user_id',
      'the sort key is created_at',
    ],
    credential(8),
  ],
  [
    'cli-password',
    'password on a command line (mysql -p…, sshpass -p, --password=)',
    ['mysql', 'mariadb', 'sshpass', '--password', 'login'],
    String.raw`\b(?:mysql(?:dump|admin|import|sh)?|mariadb)\b[^\n]*?\s(?:-p|--password=)["']?([^\s"']{4,})|\bsshpass\s+-p\s*["']?([^\s"']{4,})|--password[= ]["']?([^\s"']{4,})|\b(?:docker|podman|buildah|skopeo|helm(?: registry)?|oras)\s+login\b[^\n]*?\s-p\s*["']?([^\s"']{4,})`,
    ['mysql -u root -p{an:8}1!', 'sshpass -p {an:10}3 ssh deploy@host', 'pg_restore --password={an:12}5', 'docker login registry.acme.io -u ci -p {an:16}7'],
    ['mysql -u root -p', 'mysql -u root -p$MYSQL_PASSWORD db', 'docker login --password-stdin', 'mysql -u root -p<password>', 'docker login -u ci -p "$REGISTRY_PASSWORD" reg.io'],
    credential(6),
  ],
  [
    'docker-auth-config',
    'registry credentials in a Docker auth config ("auths": … "auth": base64 of user:password)',
    ['"auth"', 'auth\\"'],
    String.raw`\\*"auth\\*"\s*:\s*\\*"([A-Za-z0-9+/]{8,}={0,2})\\*"`,
    // base64 of `ci:hunter2-deploy9`; the config also as escaped JSON inside a string
    ['{"auths": {"registry.acme.io": {"auth": "Y2k6aHVudGVyMi1kZXBsb3k5"}}}', String.raw`DOCKER_AUTH_CONFIG={\"auths\":{\"r.acme.io\":{\"auth\":\"Y2k6aHVudGVyMi1kZXBsb3k5\"}}}`],
    ['{"auths": {"registry.acme.io": {"auth": ""}}}', '"auth": "oauth2"', '"auth": "Zm9vYmFy"'],
    dockerAuth,
  ],
  [
    'authorization-header',
    'credential in an Authorization header or after Bearer',
    ['authorization', 'bearer'],
    String.raw`(?i:authorization)["']?\s*[:=]\s*["']?(?i:bearer|basic|token|bot|apikey)\s+([A-Za-z0-9._~+/=-]{12,})|(?<![\w-])(?i:bearer)\s+([A-Za-z0-9._~+/-]{20,}=*)`,
    ['Authorization: Bearer {an:32}', 'curl -H "Authorization: Basic {an:20}8=" https://api', 'send Bearer {an:40} with each call'],
    ['Authorization: Bearer <token>', 'Authorization: Bearer $TOKEN', 'a Bearer token from the login endpoint', 'Authorization: Bearer YOUR_ACCESS_TOKEN_HERE'],
    tokenValue,
  ],
  // Keys
  // The whole block, so redaction takes the key body too; without its END line, the rest of the text (a lone header still counts).
  [
    'private-key-block',
    'private key block',
    ['PRIVATE KEY'],
    String.raw`(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*))`,
    ['-----BEGIN OPENSSH PRIVATE KEY-----', '-----BEGIN RSA PRIVATE KEY-----\n{b64:64}\n-----END RSA PRIVATE KEY-----'],
    ['-----BEGIN PUBLIC KEY-----', 'keep the private key in the vault', '-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----'],
  ],
];

/** `(?i:…)` is not JavaScript; expand it into a case-insensitive class per letter. */
function expandInlineCase(source: string): string {
  return source.replace(/\(\?i:([^)]*)\)/g, (_m, body: string) => `(?:${body.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`)})`);
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

const compileAllow = (list: readonly GeneratedAllow[]): SecretAllow[] =>
  list.map((allow) => ({ target: allow.target, patterns: allow.regexes.map((r) => new RegExp(r.source, r.flags)), stopwords: allow.stopwords }));

/** memdir rules for a format gitleaks also knows (with a looser end): they take its allowlist (Google's published keys, say). */
const SAME_FORMAT: Record<string, string> = {
  'google-api-key': 'gcp-api-key',
  'flyio-token': 'flyio-access-token',
  'hashicorp-vault-token': 'vault-service-token',
  'onepassword-token': '1password-service-account-token',
};

/**
 * A key block with its END line holds a key body (40 or more base64 characters), not `...` or
 * "anything"; without its END line it counts whatever follows (the rest of the text is redacted).
 */
const keyBlockBody = (block: string) => {
  const end = block.search(/-----END /);
  return end === -1 || block.slice(block.indexOf('-----', 11) + 5, end).replace(/[^A-Za-z0-9+/=]/g, '').length >= 40;
};
/** Checks of a format rule's match that are no credential shape (so the rule stays a format, not `assigned`). */
const FORMAT_ACCEPT: Record<string, (secret: string) => boolean> = { 'private-key-block': keyBlockBody };

/**
 * The rules, compiled on first use: a process whose output holds nothing any rule could match (most
 * of them: `where`, a hook's answer) never builds them, nor loads gitleaks' table (src/core/secret-table.ts).
 */
interface Compiled {
  memdir: readonly SecretRule[];
  gitleaks: readonly SecretRule[];
  all: readonly SecretRule[];
  /** Run bounds of each rule of `all`, same order (src/core/secret-gate.ts). */
  bounds: readonly RunBounds[];
  globalAllow: readonly SecretAllow[];
  keywords: readonly string[];
}

let compiled: Compiled | undefined;

function compiledRules(): Compiled {
  if (compiled) return compiled;
  const table = gitleaksTable();
  const memdir: SecretRule[] = rules.map(([id, description, keywords, , hit, miss, accept]) => ({
    id,
    description,
    keywords: keywords.map((k) => k.toLowerCase()),
    pattern: PENDING,
    severity: 'error',
    origin: 'memdir',
    assigned: accept !== undefined,
    secretGroup: 0,
    entropy: 0,
    allow: compileAllow(table.rules.find((r) => r.id === SAME_FORMAT[id])?.allow ?? []),
    examples: { hit, miss },
    ...((accept ?? FORMAT_ACCEPT[id]) && { accept: accept ?? FORMAT_ACCEPT[id] }),
  }));
  const gitleaks: SecretRule[] = table.rules.map((rule) => ({
    id: rule.id,
    description: rule.description,
    keywords: rule.keywords,
    pattern: PENDING,
    severity: rule.severity,
    origin: 'gitleaks',
    assigned: rule.assigned,
    secretGroup: rule.secretGroup,
    entropy: rule.entropy,
    allow: compileAllow(rule.allow),
    // gitleaks' generic rules take a value only when it holds a digit.
    ...(rule.id.startsWith('generic') && { accept: (secret: string) => /\d/.test(secret) }),
    // A provider word, an assignment and a value of the provider's shape (`adafruit_key = …`): gitleaks sets
    // no entropy floor, so a word or a placeholder fits too; a value that looks like a credential is an error.
    ...(rule.severity === 'warning' && rule.assigned && { promote: rule.id.startsWith('generic') ? randomValue : providerValue }),
  }));
  // Each pattern is compiled the first time it is read: a hook's answer that passes the gate wants a handful of rules.
  for (const [i, [, , , source]] of rules.entries()) compileOnRead(memdir[i]!, expandInlineCase(source), 'gd');
  for (const [i, rule] of table.rules.entries()) compileOnRead(gitleaks[i]!, rule.source, `${rule.flags}gd`);
  const all = [...gitleaks, ...memdir];
  const bounds = [...gitleaksGate().map((entry) => entry.bounds), ...memdirGate().map((entry) => entry.bounds)];
  // Every rule's keywords, lowercase and sorted: V8 matches the alternation about twice as fast as unsorted.
  const keywords = [...new Set(all.flatMap((r) => r.keywords))].sort();
  compiled = { memdir, gitleaks, all, bounds, globalAllow: compileAllow(table.globalAllow), keywords };
  return compiled;
}

/** Where a rule's pattern goes until it is read (compileOnRead). */
const PENDING = /(?!)/;

function compileOnRead(rule: SecretRule, source: string, flags: string): void {
  let pattern: RegExp | undefined;
  Object.defineProperty(rule, 'pattern', {
    get: () => (pattern ??= new RegExp(source, flags)),
    enumerable: true,
  });
}

/** memdir's own rules: what gitleaks has no rule for, and shapes written in prose. */
export const memdirRules = (): readonly SecretRule[] => compiledRules().memdir;
/** gitleaks' rules, generated from the vendored config (src/core/gitleaks-rules.ts). */
export const gitleaksSecretRules = (): readonly SecretRule[] => compiledRules().gitleaks;
export const secretRules = (): readonly SecretRule[] => compiledRules().all;
/** Every rule's keywords, lowercase and sorted. */
export const secretKeywords = (): readonly string[] => compiledRules().keywords;

/** The gate entry of each of memdir's own rules, from the rows (no rule compiled); the CLI's bundles hold them precomputed. */
export function memdirGateEntries(): GateEntry[] {
  return rules.map(([, , keywords, source]) => ({ keywords: keywords.map((k) => k.toLowerCase()), bounds: runBounds(expandInlineCase(source)) }));
}

let memdirEntries: readonly GateEntry[] | undefined;

function memdirGate(): readonly GateEntry[] {
  memdirEntries ??= precomputedMemdirGate() ?? memdirGateEntries();
  return memdirEntries;
}

/** The keywords of the rules a text with some runs could match, and (made when first needed) one search for them all. */
interface Candidates {
  keywords: Set<string>;
  search?: KeywordSearch;
  /** Texts searched for these keywords so far: the pattern is compiled once it is worth it. */
  uses: number;
}

let measured = 0;
const RUN_CLASSES = ['[A-Za-z0-9]', '[A-Za-z0-9_.+/=-]'];
// Runs at least this long are looked for first: few texts have many, and the longest of them is the answer.
const RUN_CUTS = [32, 8, 1];
const runPatterns = new Map<string, RegExp>();

/**
 * The text's longest runs (textRuns). A JavaScript loop over each character is what a lint of thousands
 * of texts wants once V8 has compiled it, but a short process runs it uncompiled: there, for a text of
 * some kilobytes (a hook's answer) the runs are found by native pattern matches instead — the runs of
 * 32 or more characters, else of 8 or more, else all — and the longest of those found.
 */
function runsOf(text: string): RunBounds {
  // (Past 64 KB the loop is compiled while it runs, and the matches would cost more: an index of thousands of lines.)
  if (++measured > 16 || text.length < 2048 || text.length > 65536) return textRuns(text);
  return [longestRun(text, 0), longestRun(text, 1)];
}

function longestRun(text: string, side: number): number {
  for (const cut of RUN_CUTS) {
    const key = `${side}:${cut}`;
    let pattern = runPatterns.get(key);
    if (!pattern) runPatterns.set(key, (pattern = new RegExp(`${RUN_CLASSES[side]}{${cut},}`, 'g')));
    const runs = text.match(pattern);
    if (runs) return runs.reduce((longest, run) => Math.max(longest, run.length), 0);
  }
  return 0;
}

/** The keywords of the rules whose run bounds `runs` meets: only these can matter in a text with those runs. */
function candidateKeywords(runs: RunBounds): Candidates {
  // Texts have few distinct pairs of runs (a memory's words, a path): each pair's set is worked out once.
  const key = Math.min(runs[0], 0xffff) * 0x10000 + Math.min(runs[1], 0xffff);
  let candidates = candidatesByRuns.get(key);
  if (candidates) return candidates;
  const keywords = new Set<string>();
  for (const entries of [gitleaksGate(), memdirGate()]) {
    for (const entry of entries) if (runs[0] >= entry.bounds[0] && runs[1] >= entry.bounds[1]) for (const k of entry.keywords) keywords.add(k);
  }
  // Many pairs of runs (file names of every length) have the same candidates: one entry, one search, for each set.
  const sorted = [...keywords].sort();
  const same = sorted.join('\n');
  candidates = candidatesBySet.get(same) ?? { keywords: new Set(sorted), uses: 0 };
  if (candidatesBySet.size < 1024) candidatesBySet.set(same, candidates);
  if (candidatesByRuns.size < 4096) candidatesByRuns.set(key, candidates);
  return candidates;
}
const candidatesByRuns = new Map<number, Candidates>();
const candidatesBySet = new Map<string, Candidates>();

// Up to this many keywords to look for, a search for each costs less than one pattern of them all.
const FEW_KEYWORDS = 32;
// Below this many keyword-characters to look through, searching for each keyword costs less than compiling one
// pattern for them (a path, a memory); past it (a hook's answer), or from the fourth text with these candidates, the pattern.
const SHORT_SEARCH = 200_000;

/**
 * Which candidate keywords occur in the text, as gitleaks checks a keyword (in the lowercased text): a
 * few are searched for one by one; more, by one pattern of just those, compiled once for every text
 * with the same runs (a lint of many memories compiles a handful). Where lowercasing changes the text's
 * length (`İ`), the case-insensitive search over the text decides, as it always has.
 */
function keywordsPresent(text: string, lower: string, candidates: Candidates): ReadonlySet<string> {
  const { keywords } = candidates;
  if (keywords.size === 0) return NONE;
  const present = new Set<string>();
  if (lower.length !== text.length) {
    for (const { keyword } of keywordsIn(text, lower)) if (keywords.has(keyword)) present.add(keyword);
    return present;
  }
  candidates.uses++;
  if (keywords.size <= FEW_KEYWORDS || (!candidates.search && candidates.uses <= 3 && keywords.size * lower.length < SHORT_SEARCH)) {
    for (const keyword of keywords) if (lower.includes(keyword)) present.add(keyword);
    return present;
  }
  candidates.search ??= keywordSearch([...keywords].sort(), lower.length);
  for (const { keyword } of keywordsIn(text, lower, candidates.search)) present.add(keyword);
  return present;
}
const NONE: ReadonlySet<string> = new Set();

/**
 * Whether any rule could match in a text with these runs and keywords: one of the rule's keywords
 * occurs and the runs are as long as every match of the rule needs. A necessary condition derived from
 * the rules themselves; false for most text, and decided without loading the rule table.
 */
function gate(text: string, lower: string, runs: RunBounds): ReadonlySet<string> {
  return keywordsPresent(text, lower, candidateKeywords(runs));
}

/** Whether `text` may hold a secret: false means no rule can find one in it (tested over every corpus the rules are measured on). */
export function mayHoldSecret(text: string): boolean {
  return gate(text, text.toLowerCase(), runsOf(text)).size > 0;
}

interface KeywordSearch {
  every: RegExp;
  everyI: RegExp;
  /** For each keyword, the longer ones it begins: the pattern reports only one keyword per place. */
  longer: Map<string, string[]>;
}

// Past this many characters, a pattern that branches per character pays for the time it takes to build.
const LONG_TEXT = 1_000_000;

/** One search for `keywords` (lowercase, sorted), over a text of about `length` characters. */
function keywordSearch(keywords: readonly string[], length: number): KeywordSearch {
  const source = length >= LONG_TEXT ? trieSource(keywords) : keywords.map(escapeRegExp).join('|');
  const longer = new Map<string, string[]>();
  // Sorted, the keywords a keyword begins follow it directly: one look ahead each, not every pair.
  keywords.forEach((keyword, i) => {
    const list: string[] = [];
    for (let j = i + 1; j < keywords.length && keywords[j]!.startsWith(keyword); j++) list.push(keywords[j]!);
    if (list.length > 0) longer.set(keyword, list);
  });
  // Over text whose lowercase changes its length (`İ`): the case-insensitive search, same offsets.
  return { every: new RegExp(source, 'g'), everyI: new RegExp(source, 'gi'), longer };
}

let everyKeyword: KeywordSearch | undefined;

/** The search for every rule's keyword (from the gate entries: no rule table needed), made on first use. */
function allKeywords(): KeywordSearch {
  everyKeyword ??= keywordSearch([...new Set([...gitleaksGate(), ...memdirGate()].flatMap((entry) => entry.keywords))].sort(), 0);
  return everyKeyword;
}

/**
 * The keywords as one pattern that branches on each character (`a(?:pi(?:_key)??|ws)|…`): V8 tries one
 * branch per character of the text rather than every keyword. Where one keyword begins another, the
 * shorter is matched (`??`), as a sorted alternation does; the longer ones are checked in place.
 */
function trieSource(keywords: readonly string[]): string {
  type Node = Map<string, Node | null>;
  const root: Node = new Map();
  for (const keyword of keywords) {
    let node = root;
    for (const c of keyword) {
      let next = node.get(c);
      if (!next) node.set(c, (next = new Map()));
      node = next;
    }
    node.set('', null);
  }
  const emit = (node: Node): string => {
    const branches = [...node].flatMap(([c, next]) => (next ? [`${escapeRegExp(c)}${emit(next)}`] : []));
    if (branches.length === 0) return '';
    const body = branches.length === 1 ? branches[0]! : `(?:${branches.join('|')})`;
    return node.has('') ? `(?:${body})??` : body;
  };
  return emit(root);
}

/**
 * Where each keyword occurs in `text` (lowercase keyword), in one pass. The search resumes one character
 * after each match, so keywords that overlap are all found, and the longer keywords a found one begins are
 * checked in place.
 */
function keywordsIn(text: string, lower = text.toLowerCase(), keywords = allKeywords()): Array<{ index: number; keyword: string }> {
  const { every, everyI, longer } = keywords;
  const found: Array<{ index: number; keyword: string }> = [];
  const [subject, search] = lower.length === text.length ? [lower, every] : [text, everyI];
  search.lastIndex = 0;
  for (let match = search.exec(subject); match; match = search.exec(subject)) {
    const keyword = match[0].toLowerCase();
    found.push({ index: match.index, keyword });
    for (const more of longer.get(keyword) ?? []) {
      if (subject.slice(match.index, match.index + more.length).toLowerCase() === more) found.push({ index: match.index, keyword: more });
    }
    search.lastIndex = match.index + 1;
  }
  return found;
}

/** Shannon entropy of `text` in bits per character, as gitleaks computes it. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * The match as gitleaks sees it: the generator drops gitleaks' lazy `[\w.-]{0,50}?` before a provider
 * word (it only widens the match, and costs a retry at every position), so the word characters just
 * before the match are put back for the allowlists that look at the whole match (`random_access…`).
 */
function wholeMatch(text: string, match: RegExpExecArray | RegExpMatchArray): string {
  let start = match.index!;
  while (start > 0 && match.index! - start < 50 && /[\w.-]/.test(text[start - 1]!)) start--;
  return text.slice(start, match.index! + match[0].length);
}

function allowed(list: readonly SecretAllow[], secret: string, match: () => string, line: () => string): boolean {
  for (const allow of list) {
    const lower = allow.stopwords.length > 0 ? secret.toLowerCase() : '';
    if (allow.stopwords.some((word) => lower.includes(word))) return true;
    const target = allow.target === 'secret' ? secret : allow.target === 'match' ? match() : line();
    if (allow.patterns.some((pattern) => pattern.test(target))) return true;
  }
  return false;
}

/** Written on a line, opts that line out of the scan (a documented test key, say). */
export const ALLOW_SECRET_MARKER = 'memdir:allow-secret';

export interface SecretHit {
  rule: SecretRule;
  /** The rule's severity, or `error` where a warning rule's value is credential-like (SecretRule.promote). */
  severity: 'error' | 'warning';
  /** Offset and length of the secret itself in the text (for redaction), never the secret in a message. */
  index: number;
  length: number;
}

/**
 * Every secret in `text`, except on lines marked `memdir:allow-secret`: by default the rules precise
 * enough to refuse a write or an upload (`error`); `warnings: true` adds the looser ones lint reports.
 * Where two rules find the same secret, one is kept: a provider format before a keyword shape, an error
 * before a warning, the earlier, then the longer.
 */
export function findSecrets(text: string, options: { warnings?: boolean } = {}): SecretHit[] {
  return scan(text, text, options);
}

/** The rules run over `subject`; secrets, lines and allowlists read `text` (the same offsets): they differ in the embedded-token pass. */
function scan(subject: string, text: string, options: { warnings?: boolean }, textRunsOf?: RunBounds): SecretHit[] {
  const embedded = subject !== text;
  const hits: SecretHit[] = [];
  // Where the text is too short-worded for a rule, it cannot match (src/core/secret-gate.ts): most rules need
  // a 20-to-64 character token, and most text has none. Decided before the rule table is loaded.
  // The embedded pass reads a copy with separators made spaces: the runs of the text bound its own.
  const runs = textRunsOf ?? runsOf(subject);
  const lower = subject.toLowerCase();
  const present = gate(subject, lower, runs);
  if (present.size === 0) return hits;
  const { all, bounds, globalAllow } = compiledRules();
  let formats = false; // whether a format rule could match: only then can the embedded-token pass find one
  for (const [i, rule] of all.entries()) {
    if (embedded && rule.assigned) continue;
    if (rule.severity === 'warning' && !options.warnings && !rule.promote) continue;
    if (runs[0] < bounds[i]![0] || runs[1] < bounds[i]![1]) continue;
    if (!rule.assigned) formats = true;
    if (!rule.keywords.some((keyword) => present.has(keyword))) continue;
    rule.pattern.lastIndex = 0;
    for (const match of subject.matchAll(rule.pattern)) {
      const [start, end] = secretSpan(match, rule.secretGroup);
      if (end <= start) continue;
      const secret = text.slice(start, end);
      if (rule.entropy > 0 && shannonEntropy(secret) < rule.entropy) continue;
      if (rule.accept && !rule.accept(secret)) continue;
      const line = () => lineAt(text, start);
      if (rule.assigned ? isPlaceholder(secret) || EXAMPLE_LINE.test(line()) : !KEY_BLOCK.has(rule.id) && isPlaceholderToken(secret)) continue;
      const whole = () => wholeMatch(text, match);
      if (allowed(rule.allow, secret, whole, line)) continue;
      if (rule.origin === 'gitleaks' && allowed(globalAllow, secret, whole, line)) continue;
      const severity = rule.severity === 'warning' && rule.promote?.(secret) ? 'error' : rule.severity;
      if (severity === 'warning' && !options.warnings) continue;
      hits.push({ rule, severity, index: start, length: end - start });
    }
  }
  if (!embedded && formats) hits.push(...embeddedTokens(text, lower, options, runs));
  const kept = text.includes(ALLOW_SECRET_MARKER) ? hits.filter((hit) => !lineAt(text, hit.index).includes(ALLOW_SECRET_MARKER)) : hits;
  kept.sort((a, b) => a.index - b.index || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.length - a.length);
  const distinct: SecretHit[] = [];
  for (const hit of kept) {
    const last = distinct[distinct.length - 1];
    if (last && hit.index < last.index + last.length) {
      // Overlapping: a provider format names the secret better than a keyword shape ("the token is ghp_…").
      if (last.rule.assigned && !hit.rule.assigned && hit.severity === 'error') distinct[distinct.length - 1] = hit;
      continue;
    }
    distinct.push(hit);
  }
  return distinct;
}

/** Every keyword occurrence right after a `_`, `-`, `.` or `/`. */
function keywordsAfterSeparators(text: string, lower: string): number[] {
  if (lower.length !== text.length)
    return keywordsIn(text)
      .map((f) => f.index)
      .filter((i) => isSeparator(text.charCodeAt(i - 1)));
  // One native search for a separator with a keyword after it: most separators have none.
  afterSeparator ??= new RegExp(`[-_./](?=${keywordSearchSource()})`, 'g');
  const found: number[] = [];
  afterSeparator.lastIndex = 0;
  for (let match = afterSeparator.exec(lower); match; match = afterSeparator.exec(lower)) found.push(match.index + 1);
  return found;
}

let afterSeparator: RegExp | undefined;

/** Every rule's keyword, as one alternation (from the gate entries: no rule table needed). */
function keywordSearchSource(): string {
  return `(?:${[...new Set([...gitleaksGate(), ...memdirGate()].flatMap((entry) => entry.keywords))].sort().map(escapeRegExp).join('|')})`;
}

const isSeparator = (code: number) => code === 95 || code === 45 || code === 46 || code === 47; // _ - . /

const SEVERITY_RANK = { error: 0, warning: 1 } as const;
/** Key blocks: their base64 body may hold anything, and a placeholder key is still reported (the block rule's own examples). */
const KEY_BLOCK = new Set(['private-key', 'private-key-block']);

/**
 * Tokens glued to a word by `_`, `-`, `.` or `/` (`reference_ghp_….md`, `key-sk_live_…`): many formats
 * begin at a word boundary, which a file name or a slug does not give. The separator before each keyword
 * is read as a space (same offsets) and only the format rules run, never the keyword-assignment ones.
 */
function embeddedTokens(text: string, lower: string, options: { warnings?: boolean }, runs: RunBounds): SecretHit[] {
  const after = keywordsAfterSeparators(text, lower);
  if (after.length === 0) return [];
  const blanks = after.map((index) => index - 1);
  // …and a file name's extension ends the token as a space would.
  for (const ext of text.matchAll(/\.(?:md|markdown|txt)(?=$|[\s/:"'\x60),;])/g)) blanks.push(ext.index);
  blanks.sort((a, b) => a - b);
  // The text with each of those UTF-16 units a space (the offsets stay those of `text`), built from slices.
  let spaced = '';
  let from = 0;
  for (const blank of blanks) {
    if (blank < from) continue;
    spaced += `${text.slice(from, blank)} `;
    from = blank + 1;
  }
  return scan(spaced + text.slice(from), text, options, runs);
}

/** The secret's offsets in the text: the rule's group, or with none set the first group that matched, else the whole match. */
function secretSpan(match: RegExpExecArray | RegExpMatchArray, group: number): [number, number] {
  const indices = match.indices!;
  if (group > 0) return indices[group] ?? [0, 0];
  for (let i = 1; i < indices.length; i++) if (indices[i]) return indices[i]!;
  return indices[0]!;
}

function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? text.length : end);
}

/** The text with every secret (only the captured secret, not its context) replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  return redactWithin(text);
}

/** redactSecrets, given bounds on the text's runs where they are known already (a string of a JSON document already measured). */
function redactWithin(text: string, runs?: RunBounds): string {
  let out = '';
  let at = 0;
  for (const hit of scan(text, text, { warnings: true }, runs)) {
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
 * (`\n`) or cut one in half. Text no rule could match (most output: no keyword, or no run of
 * characters long enough): two cheap passes, nothing copied, no rule compiled.
 */
export function redactOutput(text: string, format: 'text' | 'json' = 'text'): string {
  if (format === 'text') return redactSecrets(text);
  const runs = jsonRuns(text);
  const keywords = keywordOffsets(text, text.toLowerCase(), candidateKeywords(runs));
  return keywords.length === 0 ? text : redactJsonStrings(text, keywords, runs);
}

/**
 * The runs of a JSON document as bounds for the runs of its decoded strings: the same, unless an escape
 * (`\u0041`, `\/`) stands for a run character, and then no bound at all.
 */
function jsonRuns(text: string): RunBounds {
  return /\\[u/]/.test(text) ? [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY] : runsOf(text);
}

/**
 * Valid JSON text (or JSON lines) with its string literals redacted. JSON escapes no character of a
 * keyword, so only a literal holding a keyword of a rule that could match in the document (its runs
 * long enough) can hold a secret: the others are stepped over with indexOf (a regex over every
 * literal costs four times more on a large document).
 */
function redactJsonStrings(text: string, keywords: readonly number[], runs: RunBounds): string {
  let out = '';
  let copied = 0;
  let next = 0; // the first keyword not before the current literal
  for (let open = text.indexOf('"'); open !== -1 && next < keywords.length; open = text.indexOf('"', open + 1)) {
    const close = closingQuote(text, open);
    if (close === -1) break; // not JSON after all: what is left stays as it is
    while (next < keywords.length && keywords[next]! < open) next++;
    if (next < keywords.length && keywords[next]! < close) {
      const value = JSON.parse(text.slice(open, close + 1)) as string;
      // Without an escape standing for a run character (jsonRuns), a string's runs are bounded by the document's.
      const redacted = redactWithin(value, Number.isFinite(runs[0]) ? runs : undefined);
      if (redacted !== value) {
        out += `${text.slice(copied, open)}${JSON.stringify(redacted)}`;
        copied = close + 1;
      }
    }
    open = close;
  }
  return out + text.slice(copied);
}

/** Sorted offsets of the candidate keywords in the text (of every keyword where lowercasing changes its length). */
function keywordOffsets(text: string, lower: string, candidates: Candidates): number[] {
  const { keywords } = candidates;
  if (keywords.size === 0) return [];
  if (lower.length !== text.length) return keywordsIn(text, lower).map((found) => found.index);
  if (keywords.size * lower.length >= SHORT_SEARCH) {
    candidates.search ??= keywordSearch([...keywords].sort(), lower.length);
    return keywordsIn(text, lower, candidates.search).map((found) => found.index);
  }
  const offsets: number[] = [];
  for (const keyword of keywords) for (let at = lower.indexOf(keyword); at !== -1; at = lower.indexOf(keyword, at + 1)) offsets.push(at);
  return offsets.sort((a, b) => a - b);
}

/** The quote that ends the JSON string literal opening at `open` (the first not escaped by an odd run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); ; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
}
