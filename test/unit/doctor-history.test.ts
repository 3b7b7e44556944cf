import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { hasObject, recordedCommits } from '../../src/doctor/history.js';
import { addWorktree, createRepo } from '../helpers/git-repo.js';
import { repoRoot } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

describe("doctor: a moved project's history", () => {
  test('a commit is found by any prefix, loose and packed, from a linked worktree too; a commit of another history is not', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const other = await createRepo(path.join(tempDir(), 'other'));
    // Its own history: two repositories made in the same second with the same file share their first commit.
    fs.writeFileSync(path.join(other, 'other.txt'), 'other\n');
    await simpleGit(other).add('other.txt').commit('other');
    const head = (await simpleGit(repo).revparse(['HEAD'])).trim();
    const foreign = (await simpleGit(other).revparse(['HEAD'])).trim();
    for (const length of [7, 8, 40]) expect([hasObject(repo, head.slice(0, length)), hasObject(repo, foreign.slice(0, length))]).toEqual([true, false]);
    await simpleGit(repo).raw(['gc', '--quiet']);
    expect(fs.readdirSync(path.join(repo, '.git', 'objects', 'pack')).some((f) => f.endsWith('.idx'))).toBe(true);
    expect(fs.existsSync(path.join(repo, '.git', 'objects', head.slice(0, 2)))).toBe(false);
    for (const length of [7, 9, 40]) expect([hasObject(repo, head.slice(0, length)), hasObject(repo, foreign.slice(0, length))]).toEqual([true, false]);
    const worktree = await addWorktree(repo, path.join(tempDir(), 'wt'));
    expect(hasObject(worktree, head.slice(0, 7))).toBe(true);
    expect([hasObject(path.join(tempDir(), 'none'), head), hasObject(repo, 'not-hex')]).toEqual([false, false]);
  });

  test("the recent commits a 2.1.332 transcript's git status lists", () => {
    const folder = tempDir();
    fs.copyFileSync(path.join(repoRoot, 'test/fixtures/claude-code-2.1.332/session-git-status.jsonl'), path.join(folder, 's1.jsonl'));
    fs.copyFileSync(path.join(repoRoot, 'test/fixtures/shared/claude-code-2.1.197/session-writes-memory.jsonl'), path.join(folder, 's2.jsonl'));
    expect(recordedCommits(folder, ['s1', 's2', 'missing'])).toEqual(['5ee87e9']);
  });
});
