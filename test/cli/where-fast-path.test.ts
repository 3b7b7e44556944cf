import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { runRecorded } from '../helpers/load-recorder.js';
import { cleanEnv, memdirBin, repoRoot } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

test('where answers without yargs, exactly as the full CLI does (output, errors, exit codes); other forms go to the CLI', async () => {
  const root = tempDir();
  const project = path.join(root, 'project');
  fs.mkdirSync(path.join(project, '.git'), { recursive: true });
  const env = cleanEnv(path.join(root, 'home'));
  const fullCli = path.join(repoRoot, 'dist/cli.cjs');
  const forms = [[], ['--json'], ['--dir', path.join(root, 'memory')], ['--dir=relative'], ['--dir', '/'], ['--dir', '/', '--json'], ['-q'], ['--no-color', '--debug']];
  for (const args of forms) {
    const fast = await runRecorded(root, [memdirBin, 'where', ...args], { env, cwd: project });
    const full = await runRecorded(root, [fullCli, 'where', ...args], { env, cwd: project });
    expect([fast.code, fast.stdout, fast.stderr], args.join(' ')).toEqual([full.code, full.stdout, full.stderr]);
    expect([fast.modules.some((m) => m.endsWith('dist/fast/where.cjs')), fast.modules.some((m) => m.endsWith('dist/cli.cjs'))], args.join(' ')).toEqual([true, false]);
  }
  // The root is refused: one line, exit 2, from either path.
  const root2 = await runRecorded(root, [memdirBin, 'where', '--dir', '/'], { env, cwd: project });
  expect([root2.code, root2.stderr.trim().split('\n').length]).toEqual([2, 1]);
  for (const args of [['--help'], ['extra'], ['--hook']]) {
    const other = await runRecorded(root, [memdirBin, 'where', ...args], { env, cwd: project });
    expect(
      other.modules.some((m) => m.endsWith('dist/cli.cjs')),
      args.join(' '),
    ).toBe(true);
  }
});
