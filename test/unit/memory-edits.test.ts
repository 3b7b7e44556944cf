import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { applyMemoryEdits, forgetMemory, saveMemory } from '../../src/store/memory-store.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

const memory = (name: string, extra = {}) => ({ op: 'upsert' as const, type: 'project', name, description: `When ${name} matters for the release`, body: `${name} body.`, ...extra });

describe('applyMemoryEdits', () => {
  test('many upserts and removals land as one change with the index', async () => {
    const dir = tempDir();
    await saveMemory(dir, { type: 'user', name: 'Role', description: 'User is a data engineer on billing', body: 'Data engineer.' });
    const results = await applyMemoryEdits(dir, [memory('Freeze'), memory('Staging reset', { extraFields: { originSessionId: 'abc-123' } }), { op: 'remove', memory: 'Role' }]);
    expect(results.map((r) => [r.op, r.file])).toEqual([
      ['upsert', 'project_freeze.md'],
      ['upsert', 'project_staging_reset.md'],
      ['remove', 'user_role.md'],
    ]);
    expect(
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .sort(),
    ).toEqual(['MEMORY.md', 'project_freeze.md', 'project_staging_reset.md']);
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe(
      '- [Freeze](project_freeze.md) — When Freeze matters for the release\n- [Staging reset](project_staging_reset.md) — When Staging reset matters for the release\n',
    );
    expect(fs.readFileSync(path.join(dir, 'project_staging_reset.md'), 'utf8')).toMatch(/^---\nname: Staging reset\ndescription: .*\ntype: project\noriginSessionId: abc-123\n---\n/);
  });

  test('the same name twice in one batch is one file, updated by the second edit', async () => {
    const dir = tempDir();
    const results = await applyMemoryEdits(dir, [memory('Freeze'), { ...memory('Freeze'), body: 'Second body.' }]);
    expect(results.map((r) => r.op === 'upsert' && [r.file, r.created])).toEqual([
      ['project_freeze.md', true],
      ['project_freeze.md', false],
    ]);
    expect(fs.readFileSync(path.join(dir, 'project_freeze.md'), 'utf8')).toMatch(/\nSecond body\.\n$/);
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });

  test('all or nothing: a refused removal leaves every file as it was', async () => {
    const dir = tempDir();
    writeTree(dir, { 'MEMORY.md': '- [A](project_a.md) — a\n', 'project_a.md': '---\nname: A\ndescription: a\ntype: project\n---\nA.\n' });
    const memories = () => Object.fromEntries(Object.entries(snapshotTree(dir)).filter(([file]) => !file.startsWith('.memdir')));
    const before = memories();
    await expect(applyMemoryEdits(dir, [memory('New'), { op: 'remove', memory: 'Nope' }])).rejects.toThrow(/no memory named "Nope"/);
    await expect(applyMemoryEdits(dir, [memory('New'), { ...memory('Bad'), type: 'misc' }])).rejects.toThrow(/--type "misc"/);
    expect(memories()).toEqual(before);
  });

  test('an explicit file is written there, confined to the directory', async () => {
    const dir = tempDir();
    const [result] = await applyMemoryEdits(dir, [memory('Freeze', { file: 'notes/project_freeze.md' })]);
    expect(result!.file).toBe('notes/project_freeze.md');
    expect(fs.existsSync(path.join(dir, 'notes/project_freeze.md'))).toBe(true);
    await expect(applyMemoryEdits(dir, [memory('Out', { file: '../out.md' })])).rejects.toThrow(/outside the memory directory/);
    await expect(forgetMemory(dir, 'notes/project_freeze.md')).resolves.toMatchObject({ removedFile: true, removedPointers: 1 });
  });

  test('team/ is another scope: a private edit never writes or removes there; the team directory itself is written as its own', async () => {
    const dir = tempDir();
    await expect(applyMemoryEdits(dir, [memory('Freeze', { file: 'team/project_freeze.md' })])).rejects.toThrow(
      'team/project_freeze.md is team memory: a private write leaves it (write it with --team)',
    );
    expect(fs.existsSync(path.join(dir, 'team'))).toBe(false);
    const [team] = await applyMemoryEdits(path.join(dir, 'team'), [memory('Freeze')]);
    expect(team!.file).toBe('project_freeze.md');
    await expect(forgetMemory(dir, 'team/project_freeze.md')).rejects.toThrow('"team/project_freeze.md" is a team memory (team/project_freeze.md)');
    await expect(forgetMemory(dir, 'Freeze')).rejects.toThrow('"Freeze" is a team memory (team/project_freeze.md)');
    const [saved] = await applyMemoryEdits(dir, [memory('Freeze')]);
    expect(saved).toMatchObject({ file: 'project_freeze.md', created: true, teamNamesake: 'team/project_freeze.md' });
    expect(fs.readFileSync(path.join(dir, 'team/MEMORY.md'), 'utf8')).toBe(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8'));
  });
});
