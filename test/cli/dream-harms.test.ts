/**
 * The harms an unattended `dream` did on real directories, one fixture each: what the agent sees
 * must not get worse. Each runs the default (`dream --force`) on a copy and checks the bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { rulesStillVisible } from '../../src/core/standing-rules.js';
import { loadIndex } from '../../src/core/load-model.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

const topic = (name: string, description: string, type: string, body: string, modified?: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n${modified ? `modified: ${modified}\n` : ''}---\n\n${body}\n`;

const memories = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).filter(([k]) => !k.startsWith('.')));

async function dream(files: Record<string, string>, args: string[] = []) {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  writeTree(dir, files);
  const before = snapshotTree(dir);
  const r = await runMemdir(['dream', '--dir', dir, '--force', '--max-delete', '100', '--json', ...args], { cwd: root, env: cleanEnv(root) });
  expect(r.code, r.stderr).toBe(0);
  const read = (file: string) => (fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : undefined);
  return { dir, before, after: snapshotTree(dir), result: JSON.parse(r.stdout), read };
}

describe('dream does not make what the agent sees worse', () => {
  test('an "always apply" rules section, a table and the user\'s order stay in the index byte for byte; only the dead pointer goes, and a dead pointer stating a rule stays, reported', async () => {
    const index = [
      '# Project memory',
      '',
      '## Behaviour rules (always apply)',
      '- Other repos are READ-ONLY: a separate instance owns them, never commit there.',
      "- Don't ask the user to recall numbers — diff the analytics CSV against git.",
      '',
      '| Service | Port |',
      '|---|---|',
      '| api | 8080 |',
      '',
      '## Work',
      '- [Release freeze](project_freeze.md) — merges to main stop on 2026-03-05',
      '- [Old deploy notes](project_deploy_old.md) — long gone',
      '- [Staging](project_staging.md) — never point tests at production data',
      '- [Terse](feedback_terse.md) — no recap at the end of a reply',
      '',
    ].join('\n');
    const { before, after, result, read } = await dream({
      'project_freeze.md': topic('Release freeze', 'When merges to main stop', 'project', 'Merges to main stop on 2026-03-05.'),
      'feedback_terse.md': topic('Terse', 'No recap at the end of a reply', 'feedback', 'No recap.\n\n**Why:** they read the diff.\n**How to apply:** every reply.'),
      'MEMORY.md': index,
    });
    expect(read('MEMORY.md')).toBe(index.replace('- [Old deploy notes](project_deploy_old.md) — long gone\n', ''));
    expect(rulesStillVisible(loadIndex(index).loaded, loadIndex(read('MEMORY.md')!).loaded).lost).toEqual([]);
    expect(result.warnings).toContainEqual({
      path: 'MEMORY.md',
      message: 'line 14 points to project_staging.md, which does not exist; left in the index: it states a rule the agent reads there',
    });
    // No topic file touched, none created.
    expect(Object.keys(memories(after)).sort()).toEqual(Object.keys(memories(before)).sort());
    for (const file of ['project_freeze.md', 'feedback_terse.md']) expect(after[file]).toBe(before[file]);
  });

  test('a retired archive index (an old index kept as a file, an "archived" section) is left as it is, not rebuilt into a live index', async () => {
    const archived = (i: number) => topic(`Sprint ${i}`, `What sprint ${i} shipped and why`, 'project', `Sprint ${i} shipped the ${['billing', 'search', 'import'][i % 3]} work.`);
    const files: Record<string, string> = {
      'MEMORY.md': '# Memory\n\n- [Terse](feedback_terse.md) — no recap at the end of a reply\n\n## Archived (no longer active)\nOlder sprints are in archive/MEMORY_2025.md; do not load them.\n',
      'feedback_terse.md': topic('Terse', 'No recap at the end of a reply', 'feedback', 'No recap.\n\n**Why:** they read the diff.\n**How to apply:** every reply.'),
      'archive/MEMORY_2025.md': `# Memory (2025, archived)\n\n${[1, 2, 3, 4].map((i) => `- [Sprint ${i}](sprint_${i}.md) — what sprint ${i} shipped`).join('\n')}\n`,
    };
    for (const i of [1, 2, 3, 4]) files[`archive/sprint_${i}.md`] = archived(i);
    const { before, after, result } = await dream(files);
    expect(result.status).toBe('unchanged');
    expect(memories(after)).toEqual(memories(before));
  });

  test('two true duplicates: the one with more information survives although it is older; the poorer one adds only what it lacked, as lines', async () => {
    const richer = topic(
      'Staging database',
      'Where the staging database lives and how to reach it',
      'reference',
      'The staging database is db-staging-2 in eu-west-1.\nReach it through the bastion host bastion.internal with your SSO user.\nSnapshots are taken nightly at 02:00 UTC and kept for 7 days.',
      '2026-01-10',
    );
    const poorer = topic(
      'Staging DB',
      'Where the staging database lives',
      'reference',
      'The staging database is db-staging-2 in eu-west-1.\nReach it through the bastion host bastion.internal.\nAsk in #infra.',
      '2026-06-01',
    );
    const { result, read } = await dream({
      'reference_staging_database.md': richer,
      'reference_staging_db.md': poorer,
      'MEMORY.md': '- [Staging database](reference_staging_database.md) — db-staging-2 in eu-west-1, via the bastion\n- [Staging DB](reference_staging_db.md) — where the staging database lives\n',
    });
    expect(read('reference_staging_db.md')).toBeUndefined();
    // The survivor's own text, then the one line it lacked: no heading, no old hook pasted in.
    expect(read('reference_staging_database.md')).toBe(`${richer}\nAsk in #infra.\n`);
    expect(result.dropped).toContainEqual({
      text: 'Reach it through the bastion host bastion.internal.',
      reason: 'reference_staging_db.md was merged into reference_staging_database.md, which holds every word of this line',
      source: 'reference_staging_db.md',
    });
    // Its pointer says something the survivor's does not: kept, pointed at the survivor.
    expect(read('MEMORY.md')).toBe(
      '- [Staging database](reference_staging_database.md) — db-staging-2 in eu-west-1, via the bastion\n- [Staging DB](reference_staging_database.md) — where the staging database lives\n',
    );
  });

  test('an index over the load limit is restructured, but its text that a topic file already holds does not become a second file', async () => {
    const deploys = topic('Deploys', 'When deploys go out and from where', 'project', 'Deploys go out on Tuesdays from the release branch.\nHotfixes go out any day after review.');
    const filler = Array.from({ length: 210 }, (_, i) => `- [Note ${i}](project_note_${i}.md) — note ${i} about the billing service`);
    const files: Record<string, string> = {
      'project_deploys.md': deploys,
      'MEMORY.md': `# Memory\n\n## Deploys\nDeploys go out on Tuesdays from the release branch.\n\n## Notes\n- [Deploys](project_deploys.md) — when deploys go out\n${filler.join('\n')}\n`,
    };
    for (let i = 0; i < 210; i++) files[`project_note_${i}.md`] = topic(`Note ${i}`, `Note ${i} about the billing service`, 'project', `Billing note number ${i}.`);
    const { before, after, result, read } = await dream(files);
    expect(result.status).toBe('applied');
    expect(read('project_deploys.md')).toBe(deploys);
    // No file was created to hold what project_deploys.md already says.
    const created = Object.keys(memories(after)).filter((f) => !(f in before) && !/^index_/.test(f));
    for (const file of created) expect(read(file), file).not.toContain('Deploys go out on Tuesdays');
    expect(result.operations).toContainEqual(expect.objectContaining({ kind: 'merge', path: 'project_deploys.md', reason: expect.stringMatching(/is already in it, not made a file of its own$/) }));
    expect(result.operations.map((o: { reason: string }) => o.reason)).toContainEqual(expect.stringMatching(/^index over what the agent loads \(21\d lines/));
  });
});
