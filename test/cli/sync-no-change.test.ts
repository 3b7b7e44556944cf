import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { teamSetup, topic, writeTeam, type Clone } from '../helpers/team-sync.js';

/** Node's module log says whether the full CLI (dist/cli.cjs) was loaded. */
const loadsCli = (stderr: string) => /load "[^"]*dist[\\/]cli\.cjs"/.test(stderr);
const recordOf = (clone: Clone) => path.join(clone.mem, '.memdir/sync/no-change.json');

/** Tests cannot wait out the racy window (files changed within 2 s of the record are not trusted): move the record's time on. */
function ageRecord(clone: Clone): void {
  const record = JSON.parse(fs.readFileSync(recordOf(clone), 'utf8')) as { recordedAt: number };
  fs.writeFileSync(recordOf(clone), JSON.stringify({ ...record, recordedAt: record.recordedAt + 10_000 }));
}

describe('memdir sync with nothing changed: the no-change record (src/sync/no-change.ts)', () => {
  test('answers from stats and one fetch without the CLI; an edit of the same size and mtime, a touch, a deletion, an addition or a remote move goes the full way', async () => {
    const { clones, sync, remoteFiles } = await teamSetup(['a', 'b']);
    const { a, b } = clones as { a: Clone; b: Clone };
    writeTeam(a, { 'project_a.md': topic('A', 'alpha'), 'project_b.md': topic('B', 'beta'), 'deep/project_c.md': topic('C', 'gamma') });
    const traced = (clone: Clone) => sync(clone, [], { NODE_DEBUG: 'module' });
    expect((await sync(a)).code).toBe(0);
    // The first run with nothing to do records; a run that changed something does not.
    expect(fs.existsSync(recordOf(a))).toBe(false);
    const full = await sync(a);
    expect(full.stdout).toMatch(/^0 pulled, 0 pushed, 0 removed, 3 unchanged, 0 skipped, 0 refused \(.*remote\.git \(branch memdir\/team\)\)\n$/);
    ageRecord(a);
    const fast = await traced(a);
    expect([fast.code, fast.stdout, loadsCli(fast.stderr)]).toEqual([0, full.stdout, false]);

    /** One change, then: the full sync ran (and did `expected`), and recorded again so the next run is fast. */
    const fullWayAfter = async (change: () => void | Promise<void>, expected: RegExp) => {
      await change();
      const run = await traced(a);
      expect(loadsCli(run.stderr)).toBe(true);
      expect(run.stdout).toMatch(expected);
      const settle = await sync(a);
      expect(settle.code, settle.stderr).toBe(0);
      ageRecord(a);
      expect(loadsCli((await traced(a)).stderr)).toBe(false);
    };
    // Same size, mtime put back: the ctime still moves.
    const file = path.join(a.team, 'project_a.md');
    const { mtime } = fs.statSync(file);
    await fullWayAfter(() => {
      fs.writeFileSync(file, topic('A', 'ALPHA'));
      fs.utimesSync(file, mtime, mtime);
    }, /1 pushed/);
    expect((await remoteFiles())['project_a.md']).toContain('ALPHA');
    await fullWayAfter(() => fs.utimesSync(file, new Date(), new Date()), /0 pushed, 0 removed, 3 unchanged/);
    // Deleted here, still on the remote: the remote's copy comes back (deletions are not propagated).
    await fullWayAfter(() => fs.rmSync(path.join(a.team, 'deep/project_c.md')), /1 pulled, 0 pushed/);
    await fullWayAfter(() => writeTeam(a, { 'project_d.md': topic('D', 'delta') }), /1 pushed/);
    // The remote moved: another clone pushed.
    await fullWayAfter(async () => {
      writeTeam(b, { 'project_e.md': topic('E', 'epsilon') });
      expect((await sync(b)).code).toBe(0);
    }, /1 pulled/);
    expect(fs.readFileSync(path.join(a.team, 'project_e.md'), 'utf8')).toContain('epsilon');

    // Flags other than --dir, --quiet and the colour switches: the CLI, always.
    ageRecord(a);
    expect(loadsCli((await sync(a, ['--json'], { NODE_DEBUG: 'module' })).stderr)).toBe(true);
  });

  test("the user's editor, pager and ssh settings in the environment do not stop a sync (git gets the transport ones, never an editor)", async () => {
    const { clones, sync, remoteFiles } = await teamSetup(['a']);
    const { a } = clones as { a: Clone };
    writeTeam(a, { 'project_a.md': topic('A', 'alpha') });
    const r = await sync(a, [], { EDITOR: 'vi', VISUAL: 'vi', PAGER: 'less', GIT_SSH_COMMAND: 'ssh -o BatchMode=yes', SSH_ASKPASS: '/bin/false' });
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(await remoteFiles())).toEqual(['project_a.md']);
  });
});
