import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { RefusedError } from '../../src/core/errors.js';
import { applyMemoryEdits } from '../../src/store/memory-store.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

const memory = [
  '---',
  'name: Deploy command',
  'description: How this project is deployed',
  'type: feedback',
  'owner: ops',
  'originSessionId: s1',
  'originMessageUuid: m1',
  '---',
  '',
  'We deploy with make ship.',
  '',
].join('\n');
/** The memories and the index (the lock's own state left out). */
const memories = (dir: string) => Object.fromEntries(Object.entries(snapshotTree(dir)).filter(([file]) => !file.startsWith('.memdir/')));
const index = '# Memory\n\n- [Deploy command](feedback_deploy.md) — how this project is deployed\n';

describe('applyMemoryEdits: replaceBody', () => {
  test("a memory's text, name and description are replaced; its other keys and first session stay, its sources grow, its pointer follows", async () => {
    const dir = tempDir();
    writeTree(dir, { 'feedback_deploy.md': memory, 'MEMORY.md': index });
    const [result] = await applyMemoryEdits(dir, [
      {
        op: 'upsert',
        file: 'feedback_deploy.md',
        type: 'feedback',
        name: 'Deploy with npm run release',
        description: 'We now deploy with npm run release',
        body: 'We now deploy with npm run release.\n\n**Update (2026-12-05, session s4):** the user changed this.',
        extraFields: { originSessionId: 's4', originMessageUuid: 'm4' },
        replaceBody: { was: '\nWe deploy with make ship.\n' },
      },
    ]);
    expect(result).toMatchObject({ op: 'upsert', file: 'feedback_deploy.md', created: false });
    expect(fs.readFileSync(path.join(dir, 'feedback_deploy.md'), 'utf8')).toBe(
      [
        '---',
        'name: Deploy with npm run release',
        'description: We now deploy with npm run release',
        'type: feedback',
        'owner: ops',
        'originSessionId: s1',
        'originMessageUuid: m1 m4',
        '---',
        '',
        'We now deploy with npm run release.',
        '',
        '**Update (2026-12-05, session s4):** the user changed this.',
        '',
      ].join('\n'),
    );
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe('# Memory\n\n- [Deploy with npm run release](feedback_deploy.md) — We now deploy with npm run release\n');
  });

  test('a memory changed since it was read is refused and nothing is written', async () => {
    const dir = tempDir();
    writeTree(dir, { 'feedback_deploy.md': memory, 'MEMORY.md': index });
    const before = memories(dir);
    const edit = applyMemoryEdits(dir, [
      { op: 'upsert', file: 'feedback_deploy.md', type: 'feedback', name: 'N', description: 'A description', body: 'New.', replaceBody: { was: 'We deploy with make ship, by hand.' } },
    ]);
    await expect(edit).rejects.toThrow(RefusedError);
    await expect(edit).rejects.toThrow(/feedback_deploy\.md changed while extract read it; left as it is/);
    expect(memories(dir)).toEqual(before);
  });
});

describe('applyMemoryEdits: newFile', () => {
  test('a memory of a name another has gets a file of its own, the other left as it is', async () => {
    const dir = tempDir();
    writeTree(dir, { 'feedback_deploy.md': memory, 'MEMORY.md': index });
    const [own] = await applyMemoryEdits(dir, [
      { op: 'upsert', type: 'feedback', name: 'Deploy command', description: 'Release notes go out with each deploy', body: 'Release notes go out the same day.', newFile: true },
    ]);
    expect(own).toMatchObject({ file: 'feedback_deploy_command.md', created: true });
    expect(fs.readFileSync(path.join(dir, 'feedback_deploy.md'), 'utf8')).toBe(memory);
    const [again] = await applyMemoryEdits(dir, [{ op: 'upsert', type: 'feedback', name: 'Deploy command', description: 'Release notes go out with each deploy', body: 'Later.', newFile: true }]);
    expect(again).toMatchObject({ file: 'feedback_deploy_command_2.md', created: true });
  });
});
