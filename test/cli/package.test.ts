import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { installPackedAsDevDependency } from '../helpers/package.js';
import { cleanEnv, repoRoot, runProcess } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

test('the packed package installs offline into an empty project with no warning, its LICENSE and a working bin', async () => {
  const project = tempDir();
  const env = cleanEnv(tempDir());
  const installed = await installPackedAsDevDependency(project, env);
  expect(installed.code, installed.stderr).toBe(0);
  // npm names a dependency's install scripts (prepare included, for a tarball) in a warning.
  expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/warn|install.scripts/i);

  const memdir = path.join(project, 'node_modules/memdir');
  const manifest = JSON.parse(fs.readFileSync(path.join(memdir, 'package.json'), 'utf8'));
  expect(Object.keys(manifest.scripts ?? {}).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
  expect(fs.readFileSync(path.join(memdir, 'LICENSE'), 'utf8')).toContain('MIT License');
  expect(fs.existsSync(path.join(memdir, 'CHANGELOG.md'))).toBe(true);

  const version = await runProcess(path.join(project, 'node_modules/.bin/memdir'), ['--version'], { cwd: project, env });
  expect(version).toMatchObject({ code: 0, stdout: `${JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version}\n` });
}, 180_000);
