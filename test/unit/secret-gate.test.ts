import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import { runBounds, textRuns } from '../../src/core/secret-gate.js';
import { gitleaksGate, gitleaksTable } from '../../src/core/secret-table.js';
import * as secrets from '../../src/core/secrets.js';
import { corpusTexts } from '../../bench/secrets/findings.js';

const { findSecrets, mayHoldSecret, redactOutput, redactSecrets, secretRules } = secrets;

describe('run bounds of a pattern', () => {
  test('a token of a fixed length needs a run that long', () => {
    expect(runBounds('\\b(ghp_[A-Za-z0-9]{36})\\b')).toEqual([36, 40]);
    expect(runBounds('xoxb-[0-9]{10,13}-[a-z0-9]{24}', 'i')).toEqual([24, 40]);
    // Alternatives: the weaker one bounds the rule.
    expect(runBounds('ab[0-9]{30}|cd[a-f]{20}')).toEqual([22, 22]);
  });
  test('what may be absent or may be anything counts for nothing', () => {
    expect(runBounds('(?:abc)?x')).toEqual([1, 1]);
    expect(runBounds('a{0,5}')).toEqual([0, 0]);
    expect(runBounds('[^\\s]{20}')).toEqual([0, 0]);
    expect(runBounds('.{40}')).toEqual([0, 0]);
    expect(runBounds('(a)\\1{30}')).toEqual([1, 1]);
    expect(runBounds('(?<k>a)\\k<k>bc')).toEqual([2, 2]);
    // Look-arounds and anchors match no character.
    expect(runBounds('(?<![A-Za-z])(?=abc)abc\\b$')).toEqual([3, 3]);
  });
  test('token characters join what letters and digits alone do not', () => {
    expect(runBounds('[\\w.-]{10,150}')).toEqual([0, 10]);
    expect(runBounds('sk-[a-z]{20}')).toEqual([20, 23]);
    expect(runBounds('[a-z]+ [a-z]{8}')).toEqual([8, 8]);
  });
  test('a pattern it cannot read is bounded by nothing', () => {
    expect(runBounds('(?<=(')).toEqual([0, 0]);
    expect(runBounds('\\p{L}{30}', 'u')).toEqual([0, 0]);
  });
  test('the runs of a text', () => {
    expect(textRuns('')).toEqual([0, 0]);
    expect(textRuns('a bc d')).toEqual([2, 2]);
    expect(textRuns('see src/core/secrets.ts now')).toEqual([7, 19]);
  });
});

describe('the gate never rejects what the full scan finds', () => {
  test('a short process measures a long text by pattern matches, and finds what the loop finds', () => {
    // Runs first in this file: the first texts scanned are measured by pattern matches (runsOf), later ones by the loop.
    const all = corpusTexts(secrets) as Array<[string, string]>;
    const long = Array.from({ length: 6 }, (_, i) =>
      all
        .slice(i * 40, i * 40 + 40)
        .map(([, text]) => text)
        .join('\n'),
    );
    const show = (text: string) => findSecrets(text, { warnings: true }).map((hit) => `${hit.rule.id}@${hit.index}+${hit.length}`);
    const cold = long.map(show);
    for (let i = 0; i < 20; i++) findSecrets(`warm ${i}`);
    expect(long.map(show)).toEqual(cold);
    expect(cold.flat().length).toBeGreaterThan(20);
  });

  const whole = corpusTexts(secrets) as Array<[string, string]>;
  const texts = whole.flatMap(([where, text]): Array<[string, string]> => [[where, text], ...text.split('\n').map((line, i): [string, string] => [`${where} line ${i + 1}`, line])]);
  const rules = secretRules();
  const bounds = new Map(rules.map((rule) => [rule, runBounds(rule.pattern.source, rule.pattern.flags)]));

  test('every match of every rule, in every corpus text, has runs as long as its bounds', () => {
    let matches = 0;
    for (const [where, text] of texts) {
      for (const rule of rules) {
        const [alnum, token] = bounds.get(rule)!;
        for (const match of text.matchAll(new RegExp(rule.pattern.source, rule.pattern.flags))) {
          matches++;
          const runs = textRuns(match[0]);
          if (runs[0] < alnum || runs[1] < token) expect.fail(`${rule.id} matched ${where} with runs ${runs}, bounds ${[alnum, token]}`);
        }
      }
    }
    expect(matches).toBeGreaterThan(1000);
  });

  test('a text with a finding passes the gate, and the output filter redacts as the full redaction does', () => {
    let flagged = 0;
    for (const [where, text] of texts) {
      if (findSecrets(text, { warnings: true }).length > 0) {
        flagged++;
        expect(mayHoldSecret(text), where).toBe(true);
      }
      expect(redactOutput(text), where).toBe(redactSecrets(text));
      const json = JSON.stringify({ text });
      expect(JSON.parse(redactOutput(json, 'json')).text, where).toBe(redactSecrets(text));
    }
    expect(flagged).toBeGreaterThan(500);
  });

  test('most prose passes no rule: the gate is worth having', () => {
    const prose = fs.readFileSync(path.join(import.meta.dirname, '../../docs/architecture.md'), 'utf8').split('\n\n');
    const passed = prose.filter(mayHoldSecret).length;
    expect(passed / prose.length).toBeLessThan(0.5);
  });
});

describe('the CLI bundles', () => {
  test('read the table the source holds, and hold the gate the source computes', () => {
    const dist = path.join(import.meta.dirname, '../../dist');
    expect(JSON.parse(fs.readFileSync(path.join(dist, 'gitleaks-rules.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(gitleaksTable())));
    const bundle = fs.readFileSync(path.join(dist, 'fast/where.cjs'), 'utf8');
    // The literal esbuild wrote, read as JavaScript reads it.
    const held = (name: string) => JSON.parse(vm.runInNewContext(new RegExp(`\\b${name} = JSON\\.parse\\((.*?)\\);\\n`).exec(bundle)?.[1] ?? '"null"'));
    expect(held('GATE')).toEqual(gitleaksGate());
    expect(held('MEMDIR_GATE')).toEqual(secrets.memdirGateEntries());
    // …and not the table itself.
    expect(bundle).not.toContain(gitleaksTable().rules[0]!.description);
  });
});
