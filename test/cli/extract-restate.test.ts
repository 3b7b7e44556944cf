import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FakeModelServer, startFakeModelServer } from '../helpers/fake-model-server.js';
import { cleanEnv, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

// One prompt per session, in Claude Code 2.1.197's line format: the rule in one session, said again,
// in other words or changed in a later one.
const fixtures = path.join(repoRoot, 'test/fixtures/extract-restate');
const session = (n: number) => `5e551010-000${n}-4000-8000-00000000000${n}`;
const message = (n: number) => `0000000${n}-0000-4000-8000-000000000001`;

function workspace() {
  const root = tempDir();
  return { root, dir: path.join(root, 'memory'), env: cleanEnv(path.join(root, 'home')) };
}

type Workspace = ReturnType<typeof workspace>;

async function extract({ root, dir, env }: Workspace, fixture: string) {
  const r = await runMemdir(['extract', '--from', path.join(fixtures, fixture), '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** Session 1's rule, saved as the Stop hook saves it: when the session ended (its file's time is that of the message). */
async function deployRule(w: Workspace) {
  const first = await extract(w, 'deploy-rule.jsonl');
  expect(first.operations.map((o: { op: string; file: string }) => `${o.op} ${o.file}`)).toEqual(['create feedback_we_deploy_with_make_ship.md']);
  const saved = new Date('2026-12-01T09:00:10Z');
  fs.utimesSync(path.join(w.dir, 'feedback_we_deploy_with_make_ship.md'), saved, saved);
}

const ruleFile = (origins: string, updates = '') =>
  [
    '---',
    'name: We deploy with make ship',
    'description: We deploy with make ship, never with npm run deploy',
    'type: feedback',
    `originSessionId: "${session(1)}"`,
    `originMessageUuid: ${origins}`,
    '---',
    '',
    'We deploy with make ship, never with npm run deploy.',
    '',
    '**How to apply:** wherever npm run deploy would come up, use make ship instead.',
    ...(updates ? ['', updates] : []),
    '',
  ].join('\n');
const ruleIndex = '- [We deploy with make ship](feedback_we_deploy_with_make_ship.md) — We deploy with make ship, never with npm run deploy\n';
const memoryFiles = (dir: string) => fs.readdirSync(dir).sort();
/** The memories and the index, byte for byte (memdir's own state, the cursors, left out). */
const memories = (dir: string) => Object.fromEntries(Object.entries(snapshotTree(dir)).filter(([file]) => !file.startsWith('.memdir/')));

describe('extract: a statement said again updates its memory, never a second file', () => {
  test('the same words in a later session: nothing written, reported as a duplicate', async () => {
    const w = workspace();
    await deployRule(w);
    const before = memories(w.dir);
    const again = await extract(w, 'said-again.jsonl');
    expect(again.operations).toEqual([]);
    expect(again.rejected).toEqual([{ op: 'update', file: 'feedback_we_deploy_with_make_ship.md', reason: 'feedback_we_deploy_with_make_ship.md already says it', sources: [message(2)] }]);
    expect(again.considered).toEqual([
      {
        message: message(2),
        statement: 'We deploy with make ship, never with npm run deploy.',
        kind: 'standing',
        decision: 'duplicate',
        reason: 'feedback_we_deploy_with_make_ship.md already says it',
        file: 'feedback_we_deploy_with_make_ship.md',
      },
    ]);
    expect(memories(w.dir)).toEqual(before);
    expect(fs.readFileSync(path.join(w.dir, 'feedback_we_deploy_with_make_ship.md'), 'utf8')).toBe(ruleFile(`"${message(1)}"`));
  });

  test('other words in a later session: added to the memory, dated, with its session and message', async () => {
    const w = workspace();
    await deployRule(w);
    const r = await extract(w, 'other-words.jsonl');
    expect(r.operations).toEqual([
      {
        op: 'update',
        file: 'feedback_we_deploy_with_make_ship.md',
        name: 'We deploy with make ship',
        type: 'feedback',
        description: 'We deploy with make ship, never with npm run deploy',
        sources: [message(3)],
        basis: 'request',
      },
    ]);
    expect(memoryFiles(w.dir)).toEqual(['.memdir', 'MEMORY.md', 'feedback_we_deploy_with_make_ship.md']);
    expect(fs.readFileSync(path.join(w.dir, 'feedback_we_deploy_with_make_ship.md'), 'utf8')).toBe(
      ruleFile(`${message(1)} ${message(3)}`, `**Update (2026-12-03, session ${session(3)}):** Deployments go through make ship, not npm run deploy.`),
    );
    expect(fs.readFileSync(path.join(w.dir, 'MEMORY.md'), 'utf8')).toBe(ruleIndex);
  });

  test('other words than a memory another session wrote (name and description its own): its rule line is matched', async () => {
    const w = workspace();
    // As Claude Code's own auto-memory writes a memory: a title and a topic, the rule in the body.
    const agentWritten = [
      '---',
      'name: Deploy command',
      'description: How this project is deployed to production',
      'type: feedback',
      `originSessionId: ${session(9)}`,
      '---',
      '',
      'We deploy with make ship, never with npm run deploy.',
      '',
      '**Why:** npm run deploy skips the smoke tests.',
      '**How to apply:** any deploy, by hand or in CI.',
      '',
    ].join('\n');
    const index = '- [Deploy command](feedback_deploy.md) — deploy with make ship, never npm run deploy\n';
    writeTree(w.dir, { 'feedback_deploy.md': agentWritten, 'MEMORY.md': index });
    const r = await extract(w, 'other-words.jsonl');
    expect(r.operations).toEqual([
      {
        op: 'update',
        file: 'feedback_deploy.md',
        name: 'Deploy command',
        type: 'feedback',
        description: 'How this project is deployed to production',
        sources: [message(3)],
        basis: 'request',
      },
    ]);
    expect(memoryFiles(w.dir)).toEqual(['.memdir', 'MEMORY.md', 'feedback_deploy.md']);
    expect(fs.readFileSync(path.join(w.dir, 'feedback_deploy.md'), 'utf8')).toBe(
      agentWritten.replace(`originSessionId: ${session(9)}\n`, `originSessionId: ${session(9)}\noriginMessageUuid: "${message(3)}"\n`) +
        `\n**Update (2026-12-03, session ${session(3)}):** Deployments go through make ship, not npm run deploy.\n`,
    );
    expect(fs.readFileSync(path.join(w.dir, 'MEMORY.md'), 'utf8')).toBe(index);
  });

  test('another statement under the name of a memory is a memory of its own: that one is neither overwritten nor added to', async () => {
    const w = workspace();
    await deployRule(w);
    const r = await extract(w, 'same-name.jsonl');
    expect(r.operations.map((o: { op: string; file: string; name: string }) => `${o.op} ${o.file} ${o.name}`)).toEqual(['create project_we_deploy_with_make_ship.md We deploy with make ship']);
    expect(memoryFiles(w.dir)).toEqual(['.memdir', 'MEMORY.md', 'feedback_we_deploy_with_make_ship.md', 'project_we_deploy_with_make_ship.md']);
    expect(fs.readFileSync(path.join(w.dir, 'feedback_we_deploy_with_make_ship.md'), 'utf8')).toBe(ruleFile(`"${message(1)}"`));
    expect(fs.readFileSync(path.join(w.dir, 'project_we_deploy_with_make_ship.md'), 'utf8')).toBe(
      [
        '---',
        'name: We deploy with make ship',
        'description: and the release notes go out the same day with the changelog entry',
        'type: project',
        `originSessionId: "${session(9)}"`,
        `originMessageUuid: "${message(9)}"`,
        '---',
        '',
        'We deploy with make ship, and the release notes go out the same day with the changelog entry.',
        '',
      ].join('\n'),
    );
    expect(fs.readFileSync(path.join(w.dir, 'MEMORY.md'), 'utf8')).toBe(
      `${ruleIndex}- [We deploy with make ship](project_we_deploy_with_make_ship.md) — and the release notes go out the same day with the changelog entry\n`,
    );
  });

  test('changed, said so, and newer than the memory: the claim is replaced, the old one kept in a dated note', async () => {
    const w = workspace();
    await deployRule(w);
    const run = await runMemdir(['extract', '--from', path.join(fixtures, 'changed.jsonl'), '--dir', w.dir, '--engine', 'local'], { cwd: w.root, env: w.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.trim().split('\n')).toEqual([
      'Saved 1 memory',
      'memdir extract: feedback_we_deploy_with_make_ship.md now says what the user changed it to (it said: "We deploy with make ship, never with npm run deploy.")',
    ]);
    expect(memoryFiles(w.dir)).toEqual(['.memdir', 'MEMORY.md', 'feedback_we_deploy_with_make_ship.md']);
    expect(fs.readFileSync(path.join(w.dir, 'feedback_we_deploy_with_make_ship.md'), 'utf8')).toBe(
      [
        '---',
        'name: We deploy with npm run release',
        'description: From now on we deploy with npm run release, not make ship',
        'type: feedback',
        `originSessionId: "${session(1)}"`,
        `originMessageUuid: ${message(1)} ${message(4)}`,
        '---',
        '',
        'From now on we deploy with npm run release, not make ship.',
        '',
        `**Update (2026-12-05, session ${session(4)}):** the user changed this; before, it said: "We deploy with make ship, never with npm run deploy."`,
        '',
      ].join('\n'),
    );
    expect(fs.readFileSync(path.join(w.dir, 'MEMORY.md'), 'utf8')).toBe(
      '- [We deploy with npm run release](feedback_we_deploy_with_make_ship.md) — From now on we deploy with npm run release, not make ship\n',
    );
  });

  test('changed and said so, but older than the memory: added, not replaced, and reported', async () => {
    const w = workspace();
    await deployRule(w);
    const r = await extract(w, 'changed-before.jsonl');
    const reason = 'the memory changed after this statement was made (2026-12-01)';
    expect(r.operations).toEqual([
      {
        op: 'update',
        file: 'feedback_we_deploy_with_make_ship.md',
        name: 'We deploy with make ship',
        type: 'feedback',
        description: 'We deploy with make ship, never with npm run deploy',
        sources: [message(5)],
        basis: 'inferred',
        contradiction: { replaced: false, was: 'We deploy with make ship, never with npm run deploy.', reason },
      },
    ]);
    expect(r.considered).toEqual([
      {
        message: message(5),
        statement: 'From now on we deploy with npm run release, not make ship.',
        kind: 'standing',
        decision: 'saved',
        reason: `added to feedback_we_deploy_with_make_ship.md; it may contradict "We deploy with make ship, never with npm run deploy." (not replaced: ${reason})`,
        file: 'feedback_we_deploy_with_make_ship.md',
      },
    ]);
    expect(fs.readFileSync(path.join(w.dir, 'feedback_we_deploy_with_make_ship.md'), 'utf8')).toBe(
      ruleFile(`${message(1)} ${message(5)}`, `**Update (2026-11-20, session ${session(5)}):** From now on we deploy with npm run release, not make ship.`),
    );
    expect(fs.readFileSync(path.join(w.dir, 'MEMORY.md'), 'utf8')).toBe(ruleIndex);
  });

  test('contradicting without saying it changed: added, not replaced, and reported as a possible contradiction', async () => {
    const w = workspace();
    await deployRule(w);
    const run = await runMemdir(['extract', '--from', path.join(fixtures, 'contradicts.jsonl'), '--dir', w.dir, '--engine', 'local'], { cwd: w.root, env: w.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.trim().split('\n')).toEqual([
      'Saved 1 memory',
      'memdir extract: added to feedback_we_deploy_with_make_ship.md, which may contradict it (it says: "We deploy with make ship, never with npm run deploy."); not replaced: the statement does not say the rule changed ("now", "no longer", "instead"…)',
    ]);
    expect(memoryFiles(w.dir)).toEqual(['.memdir', 'MEMORY.md', 'feedback_we_deploy_with_make_ship.md']);
    expect(fs.readFileSync(path.join(w.dir, 'feedback_we_deploy_with_make_ship.md'), 'utf8')).toBe(
      ruleFile(`${message(1)} ${message(6)}`, `**Update (2026-12-05, session ${session(6)}):** We deploy with npm run release, never with make ship.`),
    );
    expect(fs.readFileSync(path.join(w.dir, 'MEMORY.md'), 'utf8')).toBe(ruleIndex);
  });

  test('a different rule sharing many words is a memory of its own', async () => {
    const w = workspace();
    await extract(w, 'fridays.jsonl');
    const r = await extract(w, 'review.jsonl');
    expect(r.operations.map((o: { op: string; file: string }) => `${o.op} ${o.file}`)).toEqual(['create feedback_never_deploy_without_a_review.md']);
    expect(memoryFiles(w.dir)).toEqual(['.memdir', 'MEMORY.md', 'feedback_never_deploy_without_a_review.md', 'project_never_deploy.md']);
    expect(fs.readFileSync(path.join(w.dir, 'project_never_deploy.md'), 'utf8')).toBe(
      [
        '---',
        'name: Never deploy',
        'description: Never deploy on Fridays',
        'type: project',
        `originSessionId: "${session(7)}"`,
        `originMessageUuid: "${message(7)}"`,
        '---',
        '',
        'Never deploy on Fridays.',
        '',
      ].join('\n'),
    );
    expect(fs.readFileSync(path.join(w.dir, 'feedback_never_deploy_without_a_review.md'), 'utf8')).toBe(
      [
        '---',
        'name: Never deploy without a review',
        'description: Never deploy without a review (2026-12-03)',
        'type: feedback',
        `originSessionId: "${session(8)}"`,
        `originMessageUuid: "${message(8)}"`,
        '---',
        '',
        'Never deploy without a review.',
        '',
      ].join('\n'),
    );
    expect(fs.readFileSync(path.join(w.dir, 'MEMORY.md'), 'utf8')).toBe(
      [
        '- [Never deploy](project_never_deploy.md) — Never deploy on Fridays',
        '- [Never deploy without a review](feedback_never_deploy_without_a_review.md) — Never deploy without a review (2026-12-03)',
        '',
      ].join('\n'),
    );
  });
});

describe('extract --engine claude: a create the model proposes for a rule a memory already states is merged the same way', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(() => server.close());

  test('other words become an update of that memory; the same words are a duplicate, not a file', async () => {
    const w = workspace();
    await deployRule(w);
    writeTree(w.dir, {
      'project_staging.md': '---\nname: Staging resets\ndescription: The staging database is wiped every Sunday night\ntype: project\n---\n\nThe staging database is wiped every Sunday night.\n',
    });
    const create = (file: string, description: string, body: string) => ({ op: 'create', file, name: file.replace(/\.md$/, ''), description, type: 'feedback', body, sources: [message(3)] });
    server.enqueue({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_restate',
          name: 'memory_operations',
          input: {
            operations: [
              create('feedback_deploys.md', 'Deploys go through make ship', 'Deployments go through make ship, not npm run deploy.'),
              create('project_staging_wipe.md', 'Staging is wiped weekly', 'The staging database is wiped every Sunday night.'),
            ],
          },
        },
      ],
    });
    const env = { ...w.env, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url };
    const r = await runMemdir(['extract', '--from', path.join(fixtures, 'other-words.jsonl'), '--dir', w.dir, '--engine', 'claude', '--json'], { cwd: w.root, env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.engine).toBe('claude');
    expect(report.operations).toEqual([
      {
        op: 'update',
        file: 'feedback_we_deploy_with_make_ship.md',
        name: 'We deploy with make ship',
        type: 'feedback',
        description: 'We deploy with make ship, never with npm run deploy',
        sources: [message(3)],
        basis: 'model',
      },
    ]);
    expect(report.rejected).toEqual([{ op: 'update', file: 'project_staging.md', reason: 'project_staging.md already says it', sources: [message(3)] }]);
    expect(memoryFiles(w.dir)).toEqual(['.memdir', 'MEMORY.md', 'feedback_we_deploy_with_make_ship.md', 'project_staging.md']);
    expect(fs.readFileSync(path.join(w.dir, 'feedback_we_deploy_with_make_ship.md'), 'utf8')).toBe(
      ruleFile(`${message(1)} ${message(3)}`, `**Update (2026-12-03, session ${session(3)}):** Deployments go through make ship, not npm run deploy.`),
    );
  });
});
