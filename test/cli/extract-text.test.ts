import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FakeModelServer, startFakeModelServer } from '../helpers/fake-model-server.js';
import { cleanEnv, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The memories `memdir extract` writes from real-format transcripts (test/fixtures/extract), each
 * asserted whole: file name, frontmatter, body and pointer line. The title is a complete phrase, the
 * body the statement with its instruction, **Why:** only the user's own reason, no sentence every
 * memory shares, dates absolute.
 */
async function extractFixture(name: string): Promise<{ dir: string; files: Record<string, string> }> {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  const result = await runMemdir(['extract', '--from', path.join(repoRoot, 'test/fixtures/extract', `${name}.jsonl`), '--dir', dir, '--engine', 'local'], {
    cwd: root,
    env: cleanEnv(path.join(root, 'home')),
  });
  expect(result.code, result.stderr).toBe(0);
  const files = Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
  );
  return { dir, files };
}

describe('extract writes memories a person would keep', () => {
  test('the reason after a dash is the Why, the rule keeps its "never", and How to apply says what to use instead', async () => {
    const { files } = await extractFixture('deploy-reason');
    expect(files).toEqual({
      'MEMORY.md': '- [We deploy with make ship](feedback_we_deploy_with_make_ship.md) — We deploy with make ship, never with npm run deploy\n',
      'feedback_we_deploy_with_make_ship.md': [
        '---',
        'name: We deploy with make ship',
        'description: We deploy with make ship, never with npm run deploy',
        'type: feedback',
        'originSessionId: b3f1c2d4-0001-4a5e-9c1d-7e2f3a4b5c01',
        'originMessageUuid: 48674f8b-1966-53bc-a4f4-7936b90bffe2',
        '---',
        '',
        'We deploy with make ship, never with npm run deploy.',
        '',
        '**Why:** npm run deploy skips the smoke tests.',
        '**How to apply:** wherever npm run deploy would come up, use make ship instead.',
        '',
      ].join('\n'),
    });
  });

  test('a fact keeps the instruction drawn from it ("so don\'t store test fixtures there")', async () => {
    const { files } = await extractFixture('staging-instruction');
    expect(files).toEqual({
      'MEMORY.md': "- [The staging database is wiped every Sunday night](project_the_staging_database_is_wiped_every_sunday_night.md) — so don't store test fixtures there\n",
      'project_the_staging_database_is_wiped_every_sunday_night.md': [
        '---',
        'name: The staging database is wiped every Sunday night',
        "description: so don't store test fixtures there",
        'type: project',
        'originSessionId: b3f1c2d4-0002-4a5e-9c1d-7e2f3a4b5c02',
        'originMessageUuid: 161a294c-569f-5072-acbe-e391321367ef',
        '---',
        '',
        "The staging database is wiped every Sunday night, so don't store test fixtures there.",
        '',
      ].join('\n'),
    });
  });

  test('a long statement is named by a whole phrase, never cut with "…", its date absolute', async () => {
    const { files } = await extractFixture('merge-freeze');
    // "next Thursday", said on Thursday 2026-11-26.
    expect(files).toEqual({
      'MEMORY.md': "- [We're freezing merges from 2026-12-03](project_we_re_freezing_merges_from_2026_12_03.md) — until the mobile release ships\n",
      'project_we_re_freezing_merges_from_2026_12_03.md': [
        '---',
        "name: We're freezing merges from 2026-12-03",
        'description: until the mobile release ships',
        'type: project',
        'originSessionId: b3f1c2d4-0003-4a5e-9c1d-7e2f3a4b5c03',
        'originMessageUuid: 2c9a251a-2caf-536b-8825-5ece41360dcc',
        '---',
        '',
        "We're freezing merges from 2026-12-03 until the mobile release ships, so only bug fixes go in after that.",
        '',
      ].join('\n'),
    });
  });

  test('"remember that…" with no reason: no Why line, no How to apply every memory would share', async () => {
    const { files } = await extractFixture('plain-remember');
    expect(files).toEqual({
      'MEMORY.md': '- [The e2e suite needs the VPN](project_the_e2e_suite_needs_the_vpn.md) — The e2e suite needs the VPN to reach the staging API\n',
      'project_the_e2e_suite_needs_the_vpn.md': [
        '---',
        'name: The e2e suite needs the VPN',
        'description: The e2e suite needs the VPN to reach the staging API',
        'type: project',
        'originSessionId: b3f1c2d4-0004-4a5e-9c1d-7e2f3a4b5c04',
        'originMessageUuid: 33ac6c1b-a000-5d93-8896-12fc70d407a3',
        '---',
        '',
        'The e2e suite needs the VPN to reach the staging API.',
        '',
      ].join('\n'),
    });
  });

  test('lint has nothing to say about what extract wrote (MEM014, MEM015)', async () => {
    const dirs = await Promise.all(['deploy-reason', 'staging-instruction', 'merge-freeze', 'plain-remember'].map(extractFixture));
    for (const { dir } of dirs) {
      const lint = await runMemdir(['lint', '--dir', dir, '--format', 'json'], { cwd: dir, env: cleanEnv(path.join(dir, '..', 'home')) });
      const report = JSON.parse(lint.stdout) as { results: Array<{ messages: Array<{ ruleId: string }> }> };
      const list = report.results.flatMap((r) => r.messages);
      expect(list.filter((f) => f.ruleId === 'MEM014' || f.ruleId === 'MEM015' || f.ruleId === 'MEM004')).toEqual([]);
    }
  });
});

describe('extract --engine claude: the model is asked for the same text and held to it (real SDK, fake Messages API)', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(() => server.close());

  test('a cut name is refused; generic and shared Why/How lines are dropped; what remains is written whole', async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    const env = { ...cleanEnv(path.join(root, 'home')), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url };
    const transcript = path.join(repoRoot, 'test/fixtures/extract/deploy-reason.jsonl');
    const [, uuid] = /"uuid": "([^"]+)"[^\n]*\n[^\n]*\n[^\n]*make ship/.exec(fs.readFileSync(transcript, 'utf8')) ?? [];
    const create = (file: string, name: string, description: string, body: string) => ({ op: 'create', file, name, description, type: 'feedback', body, sources: [uuid] });
    server.enqueue({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_text',
          name: 'memory_operations',
          input: {
            operations: [
              create(
                'feedback_deploy_with_make_ship.md',
                'Deploys go through make ship',
                'How to deploy: make ship, never npm run deploy',
                'We deploy with make ship, never with npm run deploy.\n\n**Why:** npm run deploy skips the smoke tests.\n**How to apply:** Follow this in all future sessions.',
              ),
              create(
                'feedback_smoke_tests.md',
                'Smoke tests run before every deploy',
                'The smoke tests guard every deploy of the shop',
                'The smoke tests must pass before a deploy.\n\n**Why:** the user asked for this.\n**How to apply:** when a deploy is planned, run the smoke tests first.',
              ),
              create('feedback_flaky_checkout.md', 'The checkout spec times out on the payments…', 'checkout.spec is flaky on the payments page', 'checkout.spec is flaky.'),
              create(
                'feedback_two.md',
                'Payments page tests are slow',
                'The payments page tests take minutes to run',
                'The payments page tests are slow.\n\n**How to apply:** when a deploy is planned, run the smoke tests first.',
              ),
            ],
          },
        },
      ],
    });
    const r = await runMemdir(['extract', '--from', transcript, '--dir', dir, '--engine', 'claude', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.rejected.map((o: { file: string; reason: string }) => `${o.file}: ${o.reason}`)).toEqual(['feedback_flaky_checkout.md: name is cut ("…"); write it whole']);
    const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
    // A description with ": " is quoted in YAML.
    const front = (name: string, description: string) =>
      `---\nname: ${name}\ndescription: ${description.includes(': ') ? `"${description}"` : description}\ntype: feedback\noriginSessionId: b3f1c2d4-0001-4a5e-9c1d-7e2f3a4b5c01\noriginMessageUuid: ${uuid}\n---\n\n`;
    expect(read('feedback_deploy_with_make_ship.md')).toBe(
      `${front('Deploys go through make ship', 'How to deploy: make ship, never npm run deploy')}We deploy with make ship, never with npm run deploy.\n\n**Why:** npm run deploy skips the smoke tests.\n`,
    );
    // The generic Why is dropped; the How shared by two memories is dropped from both.
    expect(read('feedback_smoke_tests.md')).toBe(`${front('Smoke tests run before every deploy', 'The smoke tests guard every deploy of the shop')}The smoke tests must pass before a deploy.\n`);
    expect(read('feedback_two.md')).toBe(`${front('Payments page tests are slow', 'The payments page tests take minutes to run')}The payments page tests are slow.\n`);
    // The model was asked for the same: a whole title, the user's own reason, no shared boilerplate.
    const system = JSON.stringify(server.messages().at(-1)!.body.system);
    for (const asked of ['Never cut it short with \\"…\\"', 'only when the user gave a reason', 'never the same Why or How in two memories', 'absolute dates']) expect(system).toContain(asked);
  });
});
