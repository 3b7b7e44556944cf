import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandExample } from '../../src/core/secrets.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';
import { topic } from '../helpers/team-sync.js';

const token = expandExample('ghp_{an:36}');

function setup() {
  const root = tempDir('memdir-transfer-');
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const run = (args: string[]) => runMemdir(args, { cwd: root, env: cleanEnv(home), timeoutMs: 30_000 });
  return { root, run };
}

/** Every file but memdir's own state. */
const memories = (dir: string) => Object.fromEntries(Object.entries(snapshotTree(dir)).filter(([rel]) => !rel.startsWith('.memdir')));

const PRIVATE = {
  'MEMORY.md': '- [Terse](feedback_terse.md) — no trailing summary\n- [Café](notes/reference_café.md) — where the menu lives\n',
  'feedback_terse.md': topic('Terse', 'No summary at the end.', 'feedback').replace(/\n/g, '\r\n'),
  'notes/reference_café.md': `\ufeff${topic('Café', 'The menu is in the wiki.', 'reference')}`,
};
const TEAM = { 'team/MEMORY.md': '- [Freeze](project_freeze.md) — freeze\n', 'team/project_freeze.md': topic('Freeze', 'Deploy freeze.') };

describe('memdir export / import', () => {
  test('round trip through a tar and a folder into an empty directory: every file byte for byte; team/ only with --team; .memdir/ never', async () => {
    const { root, run } = setup();
    const source = path.join(root, 'source');
    writeTree(source, { ...PRIVATE, ...TEAM, '.memdir/sync/state.json': '{}' });
    const tar = path.join(root, 'memory.tar');
    const exported = await run(['export', '--dir', source, '--out', tar]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe(`exported 3 files to ${tar}\n`);
    expect((fs.statSync(tar).mode & 0o777).toString(8)).toBe('600');
    // A tar any tar reads.
    const listed = spawnSync('tar', ['-tf', tar], { encoding: 'utf8' });
    expect(listed.stdout.trim().split('\n')).toEqual(['MEMORY.md', 'feedback_terse.md', 'notes/reference_café.md']);

    const target = path.join(root, 'target');
    const imported = await run(['import', tar, '--dir', target]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(`imported  MEMORY.md\nimported  feedback_terse.md\nimported  notes/reference_café.md\n3 imported (${target})\n`);
    expect(memories(target)).toEqual(Object.fromEntries(Object.entries(memories(source)).filter(([rel]) => !rel.startsWith('team'))));

    // A second import changes nothing.
    const again = await run(['import', tar, '--dir', target, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).summary).toEqual({ imported: 0, replaced: 0, merged: 0, unchanged: 3, conflict: 0, refused: 0, skipped: 0 });

    // --team, as a folder: team/ comes along.
    const folder = path.join(root, 'folder');
    expect((await run(['export', '--dir', source, '--team', '--out', folder])).code).toBe(0);
    const whole = path.join(root, 'whole');
    const fromFolder = await run(['import', folder, '--dir', whole]);
    expect(fromFolder.code, fromFolder.stderr).toBe(0);
    expect(memories(whole)).toEqual(memories(source));
    expect(Object.keys(memories(whole)).sort()).toEqual(['MEMORY.md', 'feedback_terse.md', 'notes/reference_café.md', 'team/MEMORY.md', 'team/project_freeze.md']);

    // A tar of the whole folder, as `tar -C` makes it: ./ names; memdir's state, hidden and non-memory files are left out and said so.
    writeTree(source, { '.DS_Store': Buffer.from([0, 1, 2]), 'memdir.config.json': '{}' });
    const whole2 = path.join(root, 'whole.tar');
    expect(spawnSync('tar', ['-cf', whole2, '-C', source, '.'], { encoding: 'utf8' }).status).toBe(0);
    const fresh = path.join(root, 'fresh');
    const fromGnu = await run(['import', whole2, '--dir', fresh, '--json']);
    expect(fromGnu.code, fromGnu.stderr).toBe(0);
    expect(memories(fresh)).toEqual(memories(whole));
    const skipped = (JSON.parse(fromGnu.stdout) as { files: Array<{ file: string; status: string; reason: string }> }).files.filter((f) => f.status === 'skipped');
    expect(skipped).toEqual([
      { file: '.DS_Store', status: 'skipped', reason: 'not a memory file (hidden, or not .md); not imported' },
      { file: '.memdir/sync/state.json', status: 'skipped', reason: "memdir's own state of the other machine (.memdir/); not a memory, not imported" },
      { file: 'memdir.config.json', status: 'skipped', reason: 'not a memory file (hidden, or not .md); not imported' },
    ]);

    // An export never overwrites.
    const over = await run(['export', '--dir', source, '--out', tar]);
    expect(over.code).toBe(2);
    expect(over.stderr).toBe(`memdir: export: ${tar} exists; name a new .tar file or an empty folder with --out (an export never overwrites)\n`);
  });

  test('import conflict: a different file here is kept and reported (exit 1); the index is merged; --force takes the import; a secret is refused', async () => {
    const { root, run } = setup();
    const source = path.join(root, 'source');
    writeTree(source, { ...PRIVATE, 'project_keys.md': topic('Keys', `token ${token}`) });
    const tar = path.join(root, 'memory.tar');
    expect((await run(['export', '--dir', source, '--out', tar])).code).toBe(0);
    const target = path.join(root, 'target');
    const mine = topic('Terse', 'My own wording.', 'feedback');
    writeTree(target, { 'MEMORY.md': '- [Terse](feedback_terse.md) — mine\n', 'feedback_terse.md': mine });

    const conflict = await run(['import', tar, '--dir', target]);
    expect(conflict.code).toBe(1);
    expect(conflict.stdout).toBe(
      [
        'merged    MEMORY.md  your index, with the imported pointers it lacked',
        'conflict  feedback_terse.md  differs from the file here; yours kept (compare them, then --force to take the imported one)',
        'imported  notes/reference_café.md',
        'refused   project_keys.md  contains a secret (github-pat); not imported (remove it, or pass --allow-secret)',
        `1 imported, 1 merged, 1 conflict, 1 refused (${target})`,
        '',
      ].join('\n'),
    );
    expect(conflict.stdout).not.toContain(token);
    expect(fs.readFileSync(path.join(target, 'feedback_terse.md'), 'utf8')).toBe(mine);
    expect(fs.readFileSync(path.join(target, 'MEMORY.md'), 'utf8')).toBe('- [Terse](feedback_terse.md) — mine\n- [Café](notes/reference_café.md) — where the menu lives\n');
    expect(fs.existsSync(path.join(target, 'project_keys.md'))).toBe(false);

    const forced = await run(['import', tar, '--dir', target, '--force', '--allow-secret', '--json']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout).summary).toMatchObject({ replaced: 2, imported: 1, unchanged: 1, conflict: 0 });
    expect(fs.readFileSync(path.join(target, 'feedback_terse.md'))).toEqual(fs.readFileSync(path.join(source, 'feedback_terse.md')));
  });

  test('an entry that escapes, a link or a binary file refuses the whole import: one line, exit 2, nothing written', async () => {
    const { root, run } = setup();
    const work = path.join(root, 'work');
    writeTree(work, { 'a/ok.md': topic('Ok', 'fine'), 'outside.md': topic('Out', 'escapes') });
    const evil = path.join(root, 'evil.tar');
    // -P keeps the "../" as written, as a hostile archive would carry it.
    const made = spawnSync('tar', ['-cPf', evil, 'a/ok.md', 'a/../../work/outside.md'], { cwd: work, encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    expect(spawnSync('tar', ['-tPf', evil], { encoding: 'utf8' }).stdout).toContain('a/../../work/outside.md');
    const target = path.join(root, 'target');
    writeTree(target, { 'MEMORY.md': '- [X](x.md) — x\n', 'x.md': topic('X', 'x') });
    const before = snapshotTree(target);
    const refused = await run(['import', evil, '--dir', target]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`memdir: ${evil}: entry "a/../../work/outside.md": has an empty, "." or ".." segment; nothing imported\n`);
    expect(snapshotTree(target)).toEqual(before);
    expect(fs.existsSync(path.join(root, 'work', 'outside.md'))).toBe(true);

    const absolute = path.join(root, 'absolute.tar');
    expect(spawnSync('tar', ['-cPf', absolute, path.join(work, 'outside.md')], { encoding: 'utf8' }).status).toBe(0);
    const abs = await run(['import', absolute, '--dir', target]);
    expect(abs.code).toBe(2);
    expect(abs.stderr).toContain('is an absolute path; nothing imported');

    const linked = path.join(root, 'linked');
    writeTree(linked, { 'ok.md': topic('Ok', 'fine') });
    fs.symlinkSync('/etc/passwd', path.join(linked, 'passwd.md'));
    const link = await run(['import', linked, '--dir', target]);
    expect(link.code).toBe(2);
    expect(link.stderr).toBe(`memdir: ${linked}: entry "passwd.md": a link, not a file (links are never imported); nothing imported\n`);

    const binary = path.join(root, 'binary');
    writeTree(binary, { 'ok.md': topic('Ok', 'fine'), 'blob.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]) });
    const bin = await run(['import', binary, '--dir', target]);
    expect(bin.code).toBe(2);
    expect(bin.stderr).toMatch(/^memdir: .*binary: entry "blob\.md": binary file .*; nothing imported\n$/);
    expect(snapshotTree(target)).toEqual(before);
  });
});
