/**
 * Restructuring never takes a standing rule out of the agent's view: on every vendored real directory, each
 * rule on a pointer line of the loaded index keeps its words in the loaded index after refactor and after
 * `lint --fix`. MEMDIR_RULES_REPORT=1 prints the corpus figures (rule lines that lost words, all and pointers).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { rawDirectory } from '../../src/core/dir-model.js';
import { isStandingRule, rulesStillVisible } from '../../src/core/standing-rules.js';
import { truncateIndex } from '../../src/core/truncate.js';
import { fixDirectory } from '../../src/lint/engine.js';
import { type PlanInputFile, planRefactorKeepingWords } from '../../src/refactor/plan.js';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';
import { repoRoot } from '../helpers/run-cli.js';

const ANCHOR = new Date(2026, 1, 26, 12);
const real = path.join(repoRoot, 'test/fixtures/real');

function corpus(): Array<[string, string]> {
  const dirs = fs
    .readdirSync(real, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(real, e.name, 'MEMORY.md')))
    .map((e): [string, string] => [`real/${e.name}`, path.join(real, e.name)]);
  return [...dirs, ...fixtureMemoryDirs().map((d): [string, string] => [`shared/${path.basename(path.dirname(path.dirname(d)))}`, d])];
}

function readTexts(dir: string): Record<string, string> {
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
  return Object.fromEntries(files.map((f) => [f.split(path.sep).join('/'), fs.readFileSync(path.join(dir, f), 'utf8')]));
}

const loaded = (index: string | null | undefined) => truncateIndex(index ?? '').loaded;

/** The standing-rule lines of a loaded index whose words are no longer all in `after`. */
function lostRuleLines(before: string, after: string, pointersOnly: boolean): string[] {
  return before
    .split('\n')
    .filter((line) => isStandingRule(line) && (!pointersOnly || /^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\(/.test(line)))
    .filter((line) => rulesStillVisible(line, after).lost.length > 0);
}

const totals = { ruleLines: 0, pointerRuleLines: 0, refactor: { lost: 0, pointerLost: 0 }, fix: { lost: 0, pointerLost: 0 } };

afterAll(() => {
  if (process.env.MEMDIR_RULES_REPORT) process.stderr.write(`standing rules kept: ${JSON.stringify(totals)}\n`);
});

describe.each(corpus())('%s', (_name, dir) => {
  const texts = readTexts(dir);
  const before = loaded(texts['MEMORY.md']);
  const count = (what: 'refactor' | 'fix', after: string) => {
    totals[what].lost += lostRuleLines(before, after, false).length;
    totals[what].pointerLost += lostRuleLines(before, after, true).length;
    return lostRuleLines(before, after, true);
  };
  totals.ruleLines += before.split('\n').filter(isStandingRule).length;
  totals.pointerRuleLines += lostRuleLines(before, '', true).length;

  test('refactor keeps every rule of a pointer line loaded', () => {
    const input = new Map<string, PlanInputFile>(Object.entries(texts).map(([file, text]) => [file, { text, anchor: ANCHOR, anchorSource: 'test' }]));
    const { plan } = planRefactorKeepingWords(input);
    expect(count('refactor', loaded(plan.changes.has('MEMORY.md') ? plan.changes.get('MEMORY.md') : texts['MEMORY.md']))).toEqual([]);
  });

  test('lint --fix keeps every rule of a pointer line loaded', () => {
    const fixed = fixDirectory(rawDirectory(dir, texts), DEFAULT_CONFIG);
    expect(count('fix', loaded(fixed.raw.files.get('MEMORY.md')?.text))).toEqual([]);
  });
});
