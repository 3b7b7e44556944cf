import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

interface Rule {
  name: string;
  from: { path?: string | string[]; pathNot?: string | string[] };
}
const config = createRequire(import.meta.url)(path.join(repoRoot, '.dependency-cruiser.cjs')) as { forbidden: Rule[] };

/** `npm run lint:layers` in dir: the script and the configuration as the repository has them. */
function lintLayers(dir: string) {
  const run = spawnSync('npm', ['run', '--silent', 'lint:layers'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A copy of the source tree with the layering check's configuration, to plant imports in. */
function copyOfSource(): string {
  const dir = tempDir('memdir-layers-');
  for (const entry of ['src', 'package.json', 'tsconfig.json', '.dependency-cruiser.cjs']) fs.cpSync(path.join(repoRoot, entry), path.join(dir, entry), { recursive: true });
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

describe('npm run lint:layers', () => {
  test('the source tree keeps its layers', () => {
    const run = lintLayers(repoRoot);
    expect(run.output).toContain('no dependency violations found');
    expect(run.status).toBe(0);
  });

  test('a feature importing another feature fails, naming the rule and both files', () => {
    const dir = copyOfSource();
    writeTree(dir, { 'src/recall/planted.ts': "import type { DreamResult } from '../dream/types.js';\nexport type Planted = DreamResult;\n" });
    const run = lintLayers(dir);
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(/error feature-imports-no-feature: src\/recall\/planted\.ts → src\/dream\/types\.ts/);
    // The rule's comment says what to do about it.
    expect(run.output).toContain('belongs in a shared folder');
  });

  test('a module in a folder no layer names fails', () => {
    const dir = copyOfSource();
    writeTree(dir, { 'src/misc/planted.ts': "import { calendarDay } from '../core/dates.js';\nexport const planted = calendarDay;\n" });
    fs.appendFileSync(path.join(dir, 'src/index.ts'), "export { planted } from './misc/planted.js';\n");
    const run = lintLayers(dir);
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(/error every-folder-has-a-layer: src\/misc\/planted\.ts → src\/core\/dates\.ts/);
    expect(run.output).toMatch(/error every-imported-folder-has-a-layer: src\/index\.ts → src\/misc\/planted\.ts/);
  });

  test('every folder and file in src/ belongs to a layer the configuration names', () => {
    const rule = config.forbidden.find((r) => r.name === 'every-folder-has-a-layer');
    const layered = [rule?.from.pathNot ?? []].flat().map((pattern) => new RegExp(pattern));
    expect(layered.length).toBeGreaterThan(0);
    const entries = fs.readdirSync(path.join(repoRoot, 'src'), { withFileTypes: true }).map((e) => (e.isDirectory() ? `src/${e.name}/` : `src/${e.name}`));
    expect(entries.filter((entry) => !layered.some((pattern) => pattern.test(entry)))).toEqual([]);
  });
});
