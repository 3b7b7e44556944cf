import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { CLEAN, INDEX, plantedWorkspace } from '../helpers/dream-fixture.js';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';
import { createRepo } from '../helpers/git-repo.js';
import { calendarDay } from '../../src/core/dates.js';
import { sanitizeProjectPath } from '../../src/core/paths.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

/** The memory files only: not memdir's state, not the consolidation lock. */
const memories = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).filter(([k]) => !k.startsWith('.')));

async function planted() {
  const root = tempDir();
  const home = path.join(root, 'home');
  fs.mkdirSync(home, { recursive: true });
  const { dir, repo } = await plantedWorkspace(root);
  return { root, dir, repo, env: cleanEnv(home) };
}

/**
 * A dry run with `flags`, then the run: what the dry run showed is exactly what the run did (the
 * same diff and operations). Returns both answers and the files after, with a text reader.
 */
async function dryRunThenRun(flags: string[], { dir, repo, env }: { dir: string; repo: string; env: NodeJS.ProcessEnv }) {
  const before = snapshotTree(dir);
  const dry = await runMemdir(['dream', '--dir', dir, '--force', ...flags, '--dry-run', '--json'], { cwd: repo, env });
  expect(dry.code, dry.stderr).toBe(0);
  expect(memories(snapshotTree(dir))).toEqual(memories(before));
  const planned = JSON.parse(dry.stdout);
  const run = await runMemdir(['dream', '--dir', dir, '--force', ...flags, '--json'], { cwd: repo, env });
  expect(run.code, run.stderr).toBe(0);
  const applied = JSON.parse(run.stdout);
  expect(applied.status).toBe('applied');
  expect(applied.diff).toBe(planned.diff);
  expect(applied.operations).toEqual(planned.operations);
  const after = snapshotTree(dir);
  const text = (file: string) => Buffer.from(after[file]!, 'base64').toString('utf8');
  return { before, planned, applied, after, text };
}

describe('memdir dream on planted problems', () => {
  test('by default it changes only what each named problem requires; the index keeps every other byte; a contradiction is reported; drift is marked; the dry run is what the run does; a second run changes nothing; undo restores the bytes', async () => {
    const { dir, repo, env } = await planted();
    const { before, planned, applied, after, text } = await dryRunThenRun([], { dir, repo, env });
    expect(planned.summary).toBe('Improved 3 memories (1 merged, 1 dates, 0 pruned, 1 marked stale, 1 dead pointer dropped, MEMORY.md rewritten)');
    expect(planned.operations.map((o: { kind: string; path: string; effect: string }) => `${o.kind} ${o.effect} ${o.path}`)).toEqual([
      'stale rewrite project_parser.md',
      'merge delete reference_grafana.md',
      'index rewrite MEMORY.md',
      'dead-pointer rewrite MEMORY.md',
      'date rewrite project_beta.md',
    ]);
    expect(planned.warnings).toContainEqual({
      path: 'project_freeze_old.md',
      message:
        '"The mobile release freeze starts on 2026-03-05 for all teams." is contradicted by the newer project_freeze_new.md (modified: 2026-02-20): "The mobile release freeze starts on 2026-03-12 for all teams."; left as it is',
    });

    for (const file of [...Object.keys(CLEAN), 'project_freeze_old.md', 'project_freeze_new.md', 'reference_grafana_board.md']) expect(after[file], file).toBe(before[file]);
    expect(after['reference_grafana.md']).toBeUndefined();
    expect(text('project_beta.md')).toContain('The beta ships 2026-02-27 to all external testers.');
    expect(text('project_parser.md')).toContain(
      `The old entry point is \`src/old_parser.ts\`, kept for the CLI flags.\n**Stale?** (${calendarDay(new Date())}) cites src/old_parser.ts, which the repository no longer has (deleted in its git history)\n`,
    );
    // The index as it was, but for the two lines fixed: the dead pointer gone, the merged one re-pointed.
    expect(text('MEMORY.md')).toBe(INDEX.replace('- [Staging database](project_staging_db.md) — the staging database moved\n', '').replace('](reference_grafana.md)', '](reference_grafana_board.md)'));
    const report = fs.readFileSync(applied.report, 'utf8');
    expect(report).toContain(`drift checked against the git repository ${repo}.`);
    expect(report).toContain('is contradicted by the newer project_freeze_new.md');
    expect(path.dirname(applied.report)).toBe(path.join(dir, '.memdir', 'dream'));

    const again = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: repo, env });
    expect(JSON.parse(again.stdout).status).toBe('unchanged');
    expect(memories(snapshotTree(dir))).toEqual(memories(after));

    const undo = await runMemdir(['dream', '--dir', dir, '--undo'], { cwd: repo, env });
    expect(undo.code).toBe(0);
    expect(memories(snapshotTree(dir))).toEqual(memories(before));
    // Nothing left to undo.
    expect((await runMemdir(['dream', '--dir', dir, '--undo'], { cwd: repo, env })).code).toBe(1);
  });

  test('--restructure --prune-drift is the full pipeline: every planted problem fixed, contradictions applied, drift deleted, the index re-rendered; undo restores the bytes', async () => {
    const { dir, repo, env } = await planted();
    const { before, planned, applied, after, text } = await dryRunThenRun(['--restructure', '--prune-drift'], { dir, repo, env });
    expect(planned.summary).toBe('Improved 5 memories (1 merged, 1 dates, 2 pruned, 1 dead pointer dropped, MEMORY.md rewritten)');
    const reasons = planned.operations.map((o: { kind: string; path: string; effect: string }) => `${o.kind} ${o.effect} ${o.path}`);
    expect(reasons).toEqual([
      'dead-pointer rewrite MEMORY.md',
      'contradiction delete project_freeze_old.md',
      'drift rewrite project_parser.md',
      'merge delete reference_grafana.md',
      'date rewrite project_beta.md',
      'index rewrite MEMORY.md',
    ]);

    for (const file of Object.keys(CLEAN)) expect(after[file], file).toBe(before[file]);
    expect(after['project_freeze_old.md']).toBeUndefined();
    expect(after['reference_grafana.md']).toBeUndefined();
    expect(text('project_beta.md')).toContain('The beta ships 2026-02-27 to all external testers.');
    expect(text('project_parser.md')).not.toContain('old_parser');
    expect(text('MEMORY.md')).not.toContain('project_staging_db.md');
    expect(text('MEMORY.md')).not.toContain('project_freeze_old.md');
    expect(fs.readFileSync(applied.report, 'utf8')).toContain('contradicted by the newer project_freeze_new.md');

    const again = await runMemdir(['dream', '--dir', dir, '--force', '--restructure', '--prune-drift', '--json'], { cwd: repo, env });
    expect(JSON.parse(again.stdout).status).toBe('unchanged');
    expect((await runMemdir(['dream', '--dir', dir, '--undo'], { cwd: repo, env })).code).toBe(0);
    expect(memories(snapshotTree(dir))).toEqual(memories(before));
  });

  test('the human dry run: the summary first, what the agent would see, one line per file with its reasons; the diff only with --diff', async () => {
    const { dir, repo, env } = await planted();
    const dry = await runMemdir(['dream', '--dir', dir, '--force', '--dry-run'], { cwd: repo, env });
    expect(dry.code).toBe(0);
    const lines = dry.stdout.split('\n');
    expect(lines[0]).toBe('dry run: Improved 3 memories (1 merged, 1 dates, 0 pruned, 1 marked stale, 1 dead pointer dropped, MEMORY.md rewritten)');
    expect(lines[1]).toMatch(/^what the agent loads of MEMORY\.md: \d+ → \d+ lines, [\d,]+ → [\d,]+ characters, [\d,]+ → [\d,]+ words/);
    expect(lines[2]).toBe('standing rules the agent sees: 2 → 2');
    expect(lines[3]).toBe('would touch 4 file(s): 3 changed, 0 created, 1 deleted');
    expect(dry.stdout).toMatch(
      /^ {2}changed MEMORY\.md \(16 → 15 lines\): pointed the pointer to reference_grafana\.md at reference_grafana_board\.md: merged there; dropped the pointer to project_staging_db\.md: it does not exist$/m,
    );
    expect(dry.stdout).toMatch(/^ {2}changed project_parser\.md \(11 → 12 lines\): marked .* stale: cites src\/old_parser\.ts/m);
    expect(dry.stdout).toMatch(/^ {2}deleted reference_grafana\.md \(7 lines\): merged into reference_grafana_board\.md, a true duplicate that holds more/m);
    expect(dry.stderr).toContain('left for you: project_freeze_old.md: "The mobile release freeze starts on 2026-03-05 for all teams." is contradicted by the newer');
    expect(dry.stdout).not.toMatch(/^(---|\+\+\+|@@) /m);

    const diff = await runMemdir(['dream', '--dir', dir, '--force', '--dry-run', '--diff'], { cwd: repo, env });
    expect(diff.code).toBe(0);
    expect(diff.stdout.startsWith(dry.stdout)).toBe(true);
    expect(diff.stdout).toContain('--- a/project_beta.md\n+++ b/project_beta.md\n');
    // A deleted file is named in a header of its own, not diffed against /dev/null.
    expect(diff.stdout).toMatch(/^deleted: reference_grafana\.md\n@@ -1,\d+ \+0,0 @@\n----\n/m);
    expect(diff.stdout).not.toContain('/dev/null');
  });

  test('a plan deleting more than the budget stops with exit 1 and changes nothing', async () => {
    const { dir, repo, env } = await planted();
    const before = snapshotTree(dir);
    const r = await runMemdir(['dream', '--dir', dir, '--force', '--max-delete', '5'], { cwd: repo, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the plan deletes 1 of 13 memories, over the 5% budget');
    expect(memories(snapshotTree(dir))).toEqual(memories(before));
    expect(fs.existsSync(path.join(dir, '.consolidate-lock'))).toBe(false);
  });

  test('a pointer to a missing file with lines nested under it stays with them (the index holds that text); a bare one goes', async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    writeTree(dir, {
      'project_live.md': '---\nname: Live\ndescription: The live memory\ntype: project\n---\n\nThe live memory.\n',
      'MEMORY.md':
        '## Work\n- [Live](project_live.md) — The live memory\n- [Notes](project_notes.md) — release notes\n  - the changelog is written by hand\n- [Gone](project_gone.md) — removed long ago\n',
    });
    const run = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: root, env: cleanEnv(root) });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).summary).toBe('Improved 0 memories (0 merged, 0 dates, 0 pruned, 1 dead pointer dropped, MEMORY.md rewritten)');
    const index = fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(index).toContain('- [Notes](project_notes.md) — release notes\n  - the changelog is written by hand');
    expect(index).not.toContain('project_gone.md');
  });

  test('a standing rule on a dead pointer: kept by default; the restructure that drops it names it in the summary, the --json and the report', async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    writeTree(dir, {
      'project_live.md': '---\nname: Live\ndescription: The live memory\ntype: project\n---\n\nThe live memory.\n',
      'MEMORY.md': '- [Live](project_live.md) — The live memory\n- [Deploys](feedback_deploys.md) — never deploy on Fridays\n',
    });
    const env = cleanEnv(root);
    const kept = await runMemdir(['dream', '--dir', dir, '--force', '--dry-run'], { cwd: root, env });
    expect(kept.stdout).toContain('standing rules the agent sees: 1 → 1\n');
    expect(kept.stderr).toContain('left for you: MEMORY.md: line 2 points to feedback_deploys.md, which does not exist; left in the index: it states a rule the agent reads there');
    const dry = await runMemdir(['dream', '--dir', dir, '--force', '--dry-run', '--restructure'], { cwd: root, env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('standing rules the agent sees: 1 → 0 (1 no longer loaded)\n  no longer loaded: "never deploy on Fridays"\n');
    const run = await runMemdir(['dream', '--dir', dir, '--force', '--restructure', '--json'], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    const { agentView, report } = JSON.parse(run.stdout);
    expect(agentView).toMatchObject({
      loaded: { before: { lines: 2, words: 9 } },
      rules: { before: 1, after: 0, lost: [{ rule: 'never deploy on Fridays', keptIn: null }] },
      files: [{ path: 'MEMORY.md', change: 'changed', linesBefore: 2 }],
      counts: { changed: 1, created: 0, deleted: 0 },
    });
    expect(agentView.loaded.after.words).toBeLessThan(9);
    expect(fs.readFileSync(report, 'utf8')).toContain('  no longer loaded: "never deploy on Fridays"');
  });

  test.each([
    // The restructure's index rendering: a default run leaves headings as the user wrote them.
    ['a type heading of its own', '## Reference\n- [X](missing.md) — gone for good\n\n## Project\n- [Y](project_y.md) — the live one here\n', 1],
    ['the same heading text twice, one emptied', '# A\n## Notes\n- [X](missing.md) — gone for good\n# B\n## Notes\n- [Y](project_y.md) — the live one here\n', 1],
  ])('a heading a dead pointer leaves empty is listed as removed, once: %s', async (_, index, headings) => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    writeTree(dir, { 'project_y.md': '---\nname: Y\ndescription: the live one here\ntype: project\n---\n\nY.\n', 'MEMORY.md': index });
    const run = await runMemdir(['dream', '--dir', dir, '--force', '--restructure', '--json'], { cwd: root, env: cleanEnv(root) });
    expect(run.code, run.stderr).toBe(0);
    const report = fs.readFileSync(JSON.parse(run.stdout).report, 'utf8');
    expect(report.match(/— its section held only pointers to files that do not exist/g)).toHaveLength(headings);
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('- [Y](project_y.md) — the live one here');
  });

  test('what the plan would lose is left where it is and reported, as refactor does, instead of refusing the whole run', async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    // A type title over a pointer of another type: the layout regroups by type and the heading would go.
    writeTree(dir, {
      'reference_f1.md': '---\nname: f1\ndescription: about f1 and deploy things\ntype: reference\n---\n\nBody of f1.\n',
      'MEMORY.md': '### User\n- [T1](reference_f1.md) — hook notes\n  - detail people\n',
    });
    const run = await runMemdir(['dream', '--dir', dir, '--force', '--restructure'], { cwd: root, env: cleanEnv(root) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('left for you: MEMORY.md:1: left in the index: removing this heading would lose words');
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('User');
  });

  test("true duplicates that carry their own provenance (originSessionId, as Claude Code writes) merge into the one holding more; the merged file's is reported as dropped", async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    const memory = (name: string, session: string, how: string) =>
      `---\nname: ${name}\ndescription: Never mock the database in integration tests\ntype: feedback\noriginSessionId: ${session}\n---\n\nNever mock the database in integration tests.\n\n**Why:** a mocked migration passed and prod broke.\n**How to apply:** ${how}\n`;
    writeTree(dir, {
      'feedback_no_mocks.md': memory('No database mocks', 'aaa-111', 'integration tests hit the real test database.'),
      'feedback_real_db.md': memory('Real database in tests', 'bbb-222', 'integration tests use the real test database.'),
      'MEMORY.md': '- [No database mocks](feedback_no_mocks.md) — never mock the DB\n- [Real database in tests](feedback_real_db.md) — real DB in integration tests\n',
    });
    fs.utimesSync(path.join(dir, 'feedback_no_mocks.md'), new Date('2026-11-01'), new Date('2026-11-01'));
    const env = cleanEnv(path.join(root, 'home'));
    const r = await runMemdir(['dream', '--dir', dir, '--force', '--max-delete', '50', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    // feedback_no_mocks.md says more (its name adds "mocks"), though it is the older one.
    expect(
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .sort(),
    ).toEqual(['MEMORY.md', 'feedback_no_mocks.md']);
    const merged = fs.readFileSync(path.join(dir, 'feedback_no_mocks.md'), 'utf8');
    expect(merged).toContain('originSessionId: aaa-111\n');
    expect(merged).toContain('**How to apply:** integration tests hit the real test database.');
    // Its one line the survivor lacked, added as a line: no heading, no old hook.
    expect(merged).toMatch(/database\.\n\n\*\*How to apply:\*\* integration tests use the real test database\.\n$/);
    const result = JSON.parse(r.stdout);
    expect(result.dropped).toContainEqual({
      text: 'originSessionId: bbb-222',
      reason: 'frontmatter of feedback_real_db.md, merged into feedback_no_mocks.md, which keeps its own',
      source: 'feedback_real_db.md',
    });
    // Its pointer says something the survivor's does not: it stays, pointed at the survivor.
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe(
      '- [No database mocks](feedback_no_mocks.md) — never mock the DB\n- [Real database in tests](feedback_no_mocks.md) — real DB in integration tests\n',
    );
  });

  test('inline content in an index the agent loads whole stays; "dream": { "restructure": true } in memdir.config.json moves it out, --no-restructure does not', async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    const index = '# Memory\n\n- [Live](project_live.md) — The live memory\n\n## Deploys\nDeploys go out on Tuesdays from the release branch.\n';
    writeTree(dir, { 'project_live.md': '---\nname: Live\ndescription: The live memory\ntype: project\n---\n\nThe live memory.\n', 'MEMORY.md': index });
    const env = cleanEnv(root);
    const plain = await runMemdir(['dream', '--dir', dir, '--force', '--dry-run', '--json'], { cwd: root, env });
    expect(JSON.parse(plain.stdout).files).toEqual([]);
    writeTree(root, { 'memdir.config.json': JSON.stringify({ dream: { restructure: true } }) });
    const overridden = await runMemdir(['dream', '--dir', dir, '--force', '--no-restructure', '--dry-run', '--json'], { cwd: root, env });
    expect(JSON.parse(overridden.stdout).files).toEqual([]);
    const configured = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: root, env });
    expect(configured.code, configured.stderr).toBe(0);
    expect(JSON.parse(configured.stdout).operations).toContainEqual(
      expect.objectContaining({ kind: 'index', path: 'MEMORY.md', reason: expect.stringMatching(/^index restructured as asked \(--restructure or dream\.restructure\)/) }),
    );
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).not.toBe(index);
  });

  test('--commit commits the change with the report as message, so git revert undoes it', async () => {
    const { root, env, dir: source } = await planted();
    const repo = await createRepo(path.join(root, 'memrepo'));
    const dir = path.join(repo, 'memory');
    fs.cpSync(source, dir, { recursive: true });
    const git = simpleGit(repo);
    await git.add('.');
    await git.commit('memory');
    const before = snapshotTree(dir);
    const r = await runMemdir(['dream', '--dir', dir, '--force', '--commit'], { cwd: path.join(root, 'repo'), env });
    expect(r.code).toBe(0);
    const log = await git.log({ maxCount: 1 });
    expect(log.latest!.message).toMatch(/^memdir dream: Improved \d+ memories/);
    // Only the consolidation lock (its mtime is the last run) is left out of the commit.
    expect((await git.status()).files.map((f) => f.path)).toEqual(['memory/.consolidate-lock']);
    await git.raw(['revert', '--no-edit', 'HEAD']);
    expect(memories(snapshotTree(dir))).toEqual(memories(before));
  });

  test('on the shared fixtures: a second run changes nothing and undo restores the bytes', async () => {
    for (const source of fixtureMemoryDirs().slice(0, 4)) {
      const root = tempDir();
      const dir = path.join(root, 'memory');
      fs.cpSync(source, dir, { recursive: true });
      const env = cleanEnv(root);
      const before = snapshotTree(dir);
      const first = await runMemdir(['dream', '--dir', dir, '--force', '--max-delete', '100', '--json'], { cwd: root, env });
      expect(first.code, `${source}: ${first.stderr}`).toBe(0);
      const second = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: root, env });
      expect(JSON.parse(second.stdout).status, source).toBe('unchanged');
      if (JSON.parse(first.stdout).status === 'applied') {
        expect((await runMemdir(['dream', '--dir', dir, '--undo'], { cwd: root, env })).code).toBe(0);
      }
      expect(memories(snapshotTree(dir)), source).toEqual(memories(before));
    }
  });

  test('gathers requests to remember from the sessions since the last run that no memory holds, and reports them', async () => {
    const { dir, repo, env } = await planted();
    const line = (uuid: string, content: string) => JSON.stringify({ type: 'user', uuid, parentUuid: null, sessionId: 's1', timestamp: '2026-03-01T10:00:00Z', message: { role: 'user', content } });
    writeTree(path.join(env.HOME!, '.claude', 'projects', sanitizeProjectPath(repo)), {
      's1.jsonl': `${[
        line('u1', 'remember that the staging database is db-staging-2 in eu-west-1'),
        line('u2', 'Remember that integration tests must use a real database'),
        line('u3', 'fix the failing test in the auth module, then remember to push'),
        line('u4', 'From now on, always answer in French.'),
      ].join('\n')}\n`,
    });
    const r = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout);
    // Judged as extract judges it: a standing rule counts without the word "remember", a task step does not.
    expect(result.unsaved.map((u: { text: string }) => u.text)).toEqual(['the staging database is db-staging-2 in eu-west-1', 'From now on, always answer in French.']);
    expect(fs.readFileSync(result.report, 'utf8')).toContain('- the staging database is db-staging-2 in eu-west-1 (');
  });
});
