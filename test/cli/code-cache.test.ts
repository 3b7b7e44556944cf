import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

// bin/memdir.cjs loads every bundle through dist/code-cache.cjs. These run it on a small bundle of
// their own, in fresh processes, as the binary does.
const loader = path.join(repoRoot, 'dist/code-cache.cjs');

const bundleSource = (answer: number) =>
  `'use strict';\nconst helper = require('./helper.cjs');\nexports.answer = () => helper.twice(${answer});\nexports.where = () => [__filename, __dirname, module.filename];\n`;

function load(bundle: string, env: NodeJS.ProcessEnv = {}) {
  const script = `const m = require(${JSON.stringify(loader)}).requireBundle(${JSON.stringify(bundle)}); console.log(JSON.stringify([m.answer(), ...m.where()]));`;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as [number, string, string, string];
}

function project() {
  const dir = tempDir();
  writeTree(dir, { 'bundle.cjs': bundleSource(21), 'helper.cjs': 'exports.twice = (n) => n * 2;\n' });
  return { dir, bundle: path.join(dir, 'bundle.cjs'), cache: path.join(dir, '.cache') };
}

const cacheFiles = (cache: string) => (fs.existsSync(cache) ? fs.readdirSync(cache) : []);

test('the first run writes the cache next to the bundle; later runs use it unchanged and behave the same', () => {
  const { dir, bundle, cache } = project();
  expect(load(bundle)).toEqual([42, bundle, dir, bundle]);
  const [name] = cacheFiles(cache);
  expect(cacheFiles(cache)).toHaveLength(1);
  expect(name).toMatch(new RegExp(`^bundle\\.cjs-\\d+-\\d+-${process.version}-${process.arch}\\.bin$`));
  const written = fs.statSync(path.join(cache, name!));
  expect(load(bundle)).toEqual([42, bundle, dir, bundle]);
  expect(fs.statSync(path.join(cache, name!)).mtimeMs).toBe(written.mtimeMs);
});

test('a damaged cache is rejected, the bundle still runs, and the cache is written again', () => {
  const { bundle, cache } = project();
  load(bundle);
  const file = path.join(cache, cacheFiles(cache)[0]!);
  fs.writeFileSync(file, 'not a code cache');
  expect(load(bundle)[0]).toBe(42);
  expect(fs.readFileSync(file, 'utf8')).not.toBe('not a code cache');
});

test('a rebuilt bundle gets a cache of its own and the old one is removed', () => {
  const { bundle, cache } = project();
  load(bundle);
  const [before] = cacheFiles(cache);
  fs.writeFileSync(bundle, bundleSource(50));
  expect(load(bundle)[0]).toBe(100);
  expect(cacheFiles(cache)).toHaveLength(1);
  expect(cacheFiles(cache)[0]).not.toBe(before);
});

test('MEMDIR_CODE_CACHE=0 writes nothing; a folder it cannot write to only means no cache', () => {
  const { bundle, cache } = project();
  expect(load(bundle, { MEMDIR_CODE_CACHE: '0' })[0]).toBe(42);
  expect(fs.existsSync(cache)).toBe(false);
  fs.writeFileSync(cache, 'a file where the cache folder would go');
  expect(load(bundle)[0]).toBe(42);
  expect(fs.readFileSync(cache, 'utf8')).toBe('a file where the cache folder would go');
});

test('a run that skipped most of its command leaves the cache to the next run', () => {
  const { dir, bundle, cache } = project();
  // As the prompt hook does for a one-word prompt: the bundle's own copy of the loader marks the run.
  writeTree(dir, { 'bundle.cjs': `${bundleSource(21)}if (process.env.PARTIAL) require(${JSON.stringify(loader)}).skipsCodeCache();\n` });
  expect(load(bundle, { PARTIAL: '1' })[0]).toBe(42);
  expect(cacheFiles(cache)).toEqual([]);
  expect(load(bundle)[0]).toBe(42);
  expect(cacheFiles(cache)).toHaveLength(1);
});

test('an unusual run leaves a provisional cache, which the next usual run replaces; an unusual run after that writes nothing', () => {
  const { dir, bundle, cache } = project();
  // As the prompt hook does after rebuilding its index: the bundle's own copy of the loader marks the run.
  writeTree(dir, { 'bundle.cjs': `${bundleSource(21)}if (process.env.UNUSUAL) require(${JSON.stringify(loader)}).cachesProvisionally();\n` });
  const provisional = new RegExp(`^bundle\\.cjs-\\d+-\\d+-provisional-${process.version}-${process.arch}\\.bin$`);
  const lasting = new RegExp(`^bundle\\.cjs-\\d+-\\d+-${process.version}-${process.arch}\\.bin$`);
  expect(load(bundle, { UNUSUAL: '1' })[0]).toBe(42);
  expect(cacheFiles(cache)).toEqual([expect.stringMatching(provisional)]);
  const [first] = cacheFiles(cache);
  const written = fs.statSync(path.join(cache, first!)).mtimeMs;
  expect(load(bundle, { UNUSUAL: '1' })[0]).toBe(42);
  expect(fs.statSync(path.join(cache, first!)).mtimeMs).toBe(written);
  expect(load(bundle)[0]).toBe(42);
  expect(cacheFiles(cache)).toEqual([expect.stringMatching(lasting)]);
  const [kept] = cacheFiles(cache);
  expect(load(bundle, { UNUSUAL: '1' })[0]).toBe(42);
  expect(cacheFiles(cache)).toEqual([kept]);
});
