import { describe, expect, test } from 'vitest';
import { keptLocalPointers, mergeTeamIndex } from '../../src/sync/index-merge.js';
import fs from 'node:fs';
import path from 'node:path';
import { batches, MAX_BODY_BYTES } from '../../src/sync/http-backend.js';
import { fingerprintOf, localUnchanged, teamManifest, type NoChangeRecord } from '../../src/sync/no-change.js';
import { tempDir, writeTree } from '../helpers/temp.js';

describe('team index merge', () => {
  const remote = '# Team\n- [Freeze](project_freeze.md) — no merges this week\n';
  test('local pointers the remote lacks are kept when their files are here; the remote wins for the rest', () => {
    const local = '# Team\n- [Freeze](project_freeze.md) — old hook\n- [Staging](project_staging.md) — the staging URL\n- [Gone](project_gone.md) — file not here\n';
    const merged = mergeTeamIndex(remote, local, (key) => key !== 'project_gone.md');
    expect(merged).toBe('# Team\n- [Freeze](project_freeze.md) — no merges this week\n- [Staging](project_staging.md) — the staging URL\n');
  });
  test('nothing to add: the remote text as it is', () => expect(mergeTeamIndex(remote, remote, () => true)).toBe(remote));
});

describe('the team index as it goes up', () => {
  test('pointers to files that will not be on the remote are left out; headings, links out and the rest stay as written', () => {
    const local =
      '# Team\r\n- [Freeze](project_freeze.md) — no merges\r\n- [CI](./reference_ci.md) — the token\r\n- [Docs](https://example.com/x.md) — site\r\n## Later\r\n- [CI again](reference_ci.md#top) — twice\r\n';
    expect(keptLocalPointers(local, (key) => key === 'project_freeze.md')).toEqual({
      text: '# Team\r\n- [Freeze](project_freeze.md) — no merges\r\n- [Docs](https://example.com/x.md) — site\r\n## Later\r\n',
      kept: ['reference_ci.md'],
    });
  });
  test('every pointer on the remote: the text unchanged', () => {
    const index = '# Team\n- [Freeze](project_freeze.md) — no merges this week\n';
    expect(keptLocalPointers(index, () => true)).toEqual({ text: index, kept: [] });
  });
});

describe('HTTP PUT batches', () => {
  test('bodies stay within the limit; an entry larger than the limit goes alone', () => {
    const entries = new Map<string, string>([['huge.md', 'x'.repeat(MAX_BODY_BYTES + 10)]]);
    for (let i = 0; i < 10; i++) entries.set(`p${i}.md`, 'y'.repeat(50 * 1024));
    const bodies = batches(entries);
    expect(bodies[0]).toEqual({ 'huge.md': entries.get('huge.md') });
    for (const body of bodies.slice(1)) expect(Buffer.byteLength(JSON.stringify({ entries: body }))).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(bodies.flatMap((b) => Object.keys(b)).sort()).toEqual([...entries.keys()].sort());
  });
});

describe('the no-change record', () => {
  test('files changed within 2 s before the record are not trusted (git racy-clean rule); older ones are', () => {
    const root = tempDir('memdir-nochange-');
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git/config'), '[core]\n');
    const memdir = path.join(root, 'memory');
    writeTree(path.join(memdir, 'team'), { 'project_a.md': 'a\n' });
    const record = (recordedAt: number): NoChangeRecord => ({
      memdir,
      cwd: root,
      fingerprint: fingerprintOf(memdir, root, {})!,
      url: 'u',
      remote: 'r',
      branch: 'b',
      commit: 'c',
      files: 1,
      manifest: teamManifest(memdir)!,
      recordedAt,
    });
    expect(localUnchanged(record(Date.now()), memdir, root)).toBe(false);
    expect(localUnchanged(record(Date.now() + 10_000), memdir, root)).toBe(true);
    // A configuration that includes others cannot be fingerprinted by its own stat.
    fs.writeFileSync(path.join(root, '.git/config'), '[include]\n\tpath = other\n');
    expect(fingerprintOf(memdir, root, {})).toBeUndefined();
  });
});
