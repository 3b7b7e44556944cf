import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { runLint } from '../../src/lint/run.js';
import type { Finding } from '../../src/lint/types.js';
import { repoRoot } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Fixtures are the spec: each folder under test/fixtures/lint is a memory
 * directory, and its expected.txt lists every finding (`file:line:column RULE`)
 * lint must report. UPDATE_FIXTURES=1 rewrites expected.txt for review.
 */
const fixtureRoot = path.join(repoRoot, 'test/fixtures/lint');
const FIXED_TIME = new Date('2026-03-01T12:00:00Z');

function copyWithFixedTimes(source: string): string {
  const dir = path.join(tempDir(), path.basename(source));
  fs.cpSync(source, dir, { recursive: true, verbatimSymlinks: true });
  fs.rmSync(path.join(dir, 'expected.txt'), { force: true });
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) fs.utimesSync(path.join(entry.parentPath, entry.name), FIXED_TIME, FIXED_TIME);
  }
  return dir;
}

const describeFinding = (f: Finding) => `${f.file}:${f.line}:${f.column} ${f.ruleId}${f.fix ? ' (fixable)' : ''}`;

describe.each(fs.readdirSync(fixtureRoot).sort())('%s', (name) => {
  const source = path.join(fixtureRoot, name);
  const expectedFile = path.join(source, 'expected.txt');

  test('reports exactly the expected findings', async () => {
    const dir = copyWithFixedTimes(source);
    const [result] = await runLint([{ dir }], { config: () => DEFAULT_CONFIG });
    const actual = result!.findings.map(describeFinding);
    if (process.env.UPDATE_FIXTURES === '1') fs.writeFileSync(expectedFile, `${actual.join('\n')}\n`);
    const expected = fs.readFileSync(expectedFile, 'utf8').trim().split('\n').filter(Boolean);
    expect(actual).toEqual(expected);
    expect(actual.some((line) => line.includes(name.slice(0, 6)))).toBe(true);
  });

  test('--fix leaves nothing fixable, and a second --fix changes nothing', async () => {
    const dir = copyWithFixedTimes(source);
    const [fixed] = await runLint([{ dir }], { config: () => DEFAULT_CONFIG, fix: true });
    expect(fixed!.findings.filter((f) => f.fix).map(describeFinding)).toEqual([]);
    const [again] = await runLint([{ dir }], { config: () => DEFAULT_CONFIG, fix: true });
    expect(again!.fixed).toEqual([]);
  });
});
