import { describe, expect, test } from 'vitest';
import { mergeTeamIndex } from '../../src/sync/index-merge.js';
import { batches, MAX_BODY_BYTES } from '../../src/sync/http-backend.js';

describe('team index merge', () => {
  const remote = '# Team\n- [Freeze](project_freeze.md) — no merges this week\n';
  test('local pointers the remote lacks are kept when their files are here; the remote wins for the rest', () => {
    const local = '# Team\n- [Freeze](project_freeze.md) — old hook\n- [Staging](project_staging.md) — the staging URL\n- [Gone](project_gone.md) — file not here\n';
    const merged = mergeTeamIndex(remote, local, (key) => key !== 'project_gone.md');
    expect(merged).toBe('# Team\n- [Freeze](project_freeze.md) — no merges this week\n- [Staging](project_staging.md) — the staging URL\n');
  });
  test('nothing to add: the remote text as it is', () => expect(mergeTeamIndex(remote, remote, () => true)).toBe(remote));
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
