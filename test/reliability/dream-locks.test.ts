import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { holdLock } from '../helpers/lock-holder.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

test('dream waits for a writer holding the store lock, then consolidates what it wrote: no deadlock, nothing lost', async () => {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  writeTree(dir, {
    'MEMORY.md': '# Memory\n\n- [Role](user_role.md) — User is a staff engineer on the payments team\n',
    'user_role.md': '---\nname: Role\ndescription: User is a staff engineer on the payments team\ntype: user\n---\n\nStaff engineer, owns payments.\n',
  });
  const holder = await holdLock(dir, { busyMs: 1500 });
  const dream = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: root, env: cleanEnv(root) });
  expect(await holder.exited).toBe(0);
  expect(dream.code, dream.stderr).toBe(0);
  // The holder's line (a pointer to a file it never wrote) was there when dream read the index.
  expect(JSON.parse(dream.stdout).operations[0]).toMatchObject({ kind: 'dead-pointer', reason: expect.stringContaining('holder.md') });
  expect(fs.readFileSync(path.join(dir, '.consolidate-lock'), 'utf8')).toBe('');
  // A save while the consolidation lock is held (by this live process) is not blocked by it.
  fs.writeFileSync(path.join(dir, '.consolidate-lock'), String(process.pid));
  const save = await runMemdir(['save', '--dir', dir, '--type', 'user', '--name', 'Editor', '--description', 'User edits in Helix with vim keys', '--body', 'Helix.'], {
    cwd: root,
    env: cleanEnv(root),
  });
  expect(save.code, save.stderr).toBe(0);
});
