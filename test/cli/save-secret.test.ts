import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir } from '../helpers/temp.js';

function setup() {
  const root = tempDir();
  const home = path.join(root, 'home');
  const dir = path.join(root, 'mem');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(dir, { recursive: true });
  return { root, dir, env: cleanEnv(home) };
}

// Stripe's documented test key, made live: a provider format gitleaks' rules block.
const stripe = `${'sk_live_'}4eC39HqLyjWDarjtT1zdp7dc`;
const save = (dir: string, body: string, ...extra: string[]) => ['save', '--dir', dir, '--type', 'project', '--name', 'Stripe key', '--description', 'the payments key', '--body', body, ...extra];

describe('save refuses a secret in any memory', () => {
  test('a live key: exit 1, the rule named, never the value, nothing written; in every output mode', async () => {
    const { dir, root, env } = setup();
    for (const mode of [[], ['--json'], ['--debug']]) {
      const r = await runMemdir([...save(dir, `STRIPE=${stripe}`), ...mode], { cwd: root, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('project_stripe_key.md: contains a secret (stripe-access-token); a memory is loaded into every session, so memdir will not write it');
      expect(r.stdout + r.stderr).not.toContain(stripe.slice(8));
    }
    // Only the lock's own state folder: no memory, no index.
    expect(Object.keys(snapshotTree(dir)).filter((f) => !f.startsWith('.memdir/'))).toEqual([]);
  });

  test.each([
    ['db password is hunter2Xy9!q', 'prose-credential', 'hunter2Xy9!q'],
    ['connect with mysql -u root -pS3cr3t!x app', 'cli-password', 'S3cr3t!x'],
    ['DATABASE_URL=postgres://app:Vq7rLx2mP9kT@db.internal/app', 'uri-credential', 'Vq7rLx2mP9kT'],
  ])('in plain words: %s', async (body, rule, secret) => {
    const { dir, root, env } = setup();
    const r = await runMemdir(save(dir, body), { cwd: root, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`(${rule})`);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(fs.readdirSync(dir).filter((f) => f !== '.memdir')).toEqual([]);
  });

  test('--allow-secret saves it as it is; --redact saves [REDACTED] instead', async () => {
    const { dir, root, env } = setup();
    const allowed = await runMemdir(save(dir, `STRIPE=${stripe}`, '--allow-secret'), { cwd: root, env });
    expect(allowed).toMatchObject({ code: 0, stdout: 'saved project_stripe_key.md\n' });
    expect(fs.readFileSync(path.join(dir, 'project_stripe_key.md'), 'utf8')).toContain(`STRIPE=${stripe}`);
    const redacted = await runMemdir(save(dir, `STRIPE=${stripe}\nthe db password is hunter2Xy9!q`, '--redact'), { cwd: root, env });
    expect(redacted).toMatchObject({ code: 0, stdout: 'updated project_stripe_key.md\n' });
    expect(fs.readFileSync(path.join(dir, 'project_stripe_key.md'), 'utf8')).toBe(
      '---\nname: Stripe key\ndescription: the payments key\ntype: project\n---\n\nSTRIPE=[REDACTED]\nthe db password is [REDACTED]\n',
    );
  });

  test('team memory never takes one, even with --allow-secret; a placeholder is no secret', async () => {
    const { dir, root, env } = setup();
    const team = path.join(dir, 'team');
    fs.mkdirSync(team);
    const r = await runMemdir(save(team, `STRIPE=${stripe}`, '--allow-secret'), { cwd: root, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('contains a secret (stripe-access-token); team memory is shared');
    const placeholder = await runMemdir(save(dir, 'STRIPE_KEY=${STRIPE_KEY}; the password is in 1Password'), { cwd: root, env });
    expect(placeholder.code, placeholder.stderr).toBe(0);
  });
});

describe('lint: secrets in text, frontmatter and file names, never printed', () => {
  test('stylish, json and sarif (with --debug): the rule named, the value never; a looser rule is a warning', async () => {
    const { dir, root, env } = setup();
    const ghp = `${'ghp_'}a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8`;
    const keyBody = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n';
    const topic = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: reference\n---\n${body}\n`;
    fs.writeFileSync(path.join(dir, `reference_${ghp}.md`), topic('CI', 'the CI token', 'See the CI settings.'));
    fs.writeFileSync(path.join(dir, 'reference_db.md'), topic('DB', 'staging access', 'the staging db password is hunter2Xy9!q'));
    fs.writeFileSync(path.join(dir, 'reference_deploy.md'), topic('Deploy', `deploy with ${stripe}`, 'Deploys go through CI.'));
    fs.writeFileSync(path.join(dir, 'reference_key.md'), topic('Key', 'the deploy key', `-----BEGIN RSA PRIVATE KEY-----\n${keyBody}`));
    // A provider word and a value of its shape but little variety (8 distinct characters): a lint warning, not an error.
    fs.writeFileSync(path.join(dir, 'reference_algolia.md'), topic('Search', 'search settings', 'algolia_key = b8e5c1f0b8e5c1f0b8e5c1f0b8e5c1f0'));
    for (const format of ['stylish', 'json', 'sarif']) {
      const r = await runMemdir(['lint', dir, '--format', format, '--debug'], { cwd: root, env });
      const printed = r.stdout + r.stderr;
      expect(r.code, format).toBe(1);
      for (const rule of ['github-pat', 'prose-credential', 'stripe-access-token', 'private-key', 'algolia-api-key']) expect(printed, `${format} ${rule}`).toContain(rule);
      for (const secret of [ghp.slice(4), 'hunter2Xy9', stripe.slice(8), keyBody.slice(0, 24), 'b8e5c1f0b8e5c1f0b8e5c1f0b8e5c1f0']) expect(printed, format).not.toContain(secret);
    }
    const json = await runMemdir(['lint', dir, '--format', 'json'], { cwd: root, env });
    const findings = (JSON.parse(json.stdout) as { results: Array<{ messages: Array<{ ruleId: string; severity: string; message: string }> }> }).results.flatMap((f) =>
      f.messages.filter((m) => m.ruleId === 'MEM020').map((m) => ({ severity: m.severity, message: m.message })),
    );
    expect(findings).toContainEqual({ severity: 'warning', message: 'possible secret (algolia-api-key); remove it and rotate the credential' });
    expect(findings).toContainEqual({ severity: 'error', message: 'possible secret in the file name (github-pat); rename the file and rotate the credential' });
  });
});
