import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG, validateConfig, type LintConfig } from '../../src/config/validate.js';
import { disabledSpans } from '../../src/lint/directives.js';
import { ruleDoc } from '../../src/lint/docs.js';
import { applyFixPass, fixDirectory, lintDirectory } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { ruleOptions } from '../../src/lint/settings.js';
import { buildModel, rawDirectory } from '../../src/core/dir-model.js';
import type { RuleExample } from '../../src/lint/types.js';

/** A rule example as a directory; `inRepository` examples have their files tracked in git. */
function exampleDirectory(example: RuleExample) {
  const raw = rawDirectory('/mem', example.files);
  if (example.inRepository) for (const file of Object.keys(example.files)) raw.repoFiles.add(file);
  return raw;
}
import type { Finding, Report, Rule } from '../../src/lint/types.js';
import { repoRoot } from '../helpers/run-cli.js';

const only = (rule: Rule): LintConfig => ({ ...DEFAULT_CONFIG, rules: Object.fromEntries(RULES.map((r) => [r.id, r === rule ? r.severity : 'off'])) });

describe('rule metadata', () => {
  test('ids are permanent MEMnnn, unique, in order; names are unique kebab-case', () => {
    expect(RULES.map((r) => r.id)).toEqual(RULES.map((_, i) => `MEM${String(i + 1).padStart(3, '0')}`));
    expect(new Set(RULES.map((r) => r.name)).size).toBe(RULES.length);
    for (const rule of RULES) expect(rule.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  test.each(RULES.map((r) => [r.id, r]))('%s has a description, tags, examples and an up-to-date docs page', (id, rule) => {
    expect(rule.description.length).toBeGreaterThan(20);
    expect(rule.tags.length).toBeGreaterThan(0);
    expect(rule.examples.valid.length).toBeGreaterThan(0);
    expect(rule.examples.invalid.length).toBeGreaterThan(0);
    const page = path.join(repoRoot, 'docs/rules', `${id}.md`);
    expect(fs.readFileSync(page, 'utf8'), 'run `npm run build && npm run docs:rules`').toBe(ruleDoc(rule));
  });
});

describe.each(RULES.map((r) => [`${r.id} ${r.name}`, r]))('%s examples', (_label, rule) => {
  test('valid examples raise nothing from this rule', () => {
    for (const example of rule.examples.valid) {
      expect(lintDirectory(exampleDirectory(example), only(rule))).toEqual([]);
    }
  });

  test('invalid examples raise it', () => {
    for (const example of rule.examples.invalid) {
      expect(lintDirectory(exampleDirectory(example), only(rule)).length).toBeGreaterThan(0);
    }
  });

  test('`fixable` matches behaviour', () => {
    const reports: Report[] = [];
    for (const example of rule.examples.invalid) rule.check(buildModel(exampleDirectory(example), { skipIndex: false }), (r) => reports.push(r), ruleOptions(rule, DEFAULT_CONFIG));
    if (!rule.fixable) {
      expect(reports.filter((r) => r.fix)).toEqual([]);
      return;
    }
    expect(reports.some((r) => r.fix)).toBe(true);
    for (const example of rule.examples.invalid) {
      const { findings } = fixDirectory(exampleDirectory(example), only(rule));
      expect(findings.filter((f) => f.fix)).toEqual([]);
    }
  });
});

describe('engine', () => {
  test('a fix from a rule not marked fixable is refused', () => {
    const sneaky: Rule = {
      ...RULES[0]!,
      id: 'MEM999',
      fixable: false,
      check: (_model, report) => report({ file: 'MEMORY.md', line: 1, column: 1, message: 'x', fix: { file: 'MEMORY.md', edits: [{ start: 0, end: 0, text: 'evil' }] } }),
    };
    const findings = lintDirectory(rawDirectory('/mem', { 'MEMORY.md': '' }), DEFAULT_CONFIG, [sneaky]);
    expect(findings[0]!.fix).toBeUndefined();
  });

  test('overlapping edits wait for the next pass; same-point inserts all apply, in order', () => {
    const finding = (start: number, end: number, text: string): Finding => ({
      ruleId: 'X',
      ruleName: 'x',
      severity: 'warning',
      file: 'f.md',
      line: 1,
      column: 1,
      message: '',
      fix: { file: 'f.md', edits: [{ start, end, text }] },
    });
    const { texts, applied } = applyFixPass(new Map([['f.md', 'abcdef']]), [finding(1, 3, 'X'), finding(2, 4, 'Y'), finding(6, 6, '1'), finding(6, 6, '2')]);
    expect(applied).toBe(3);
    expect(texts.get('f.md')).toBe('aXdef12');
  });

  test('inline directives disable rules for a span', () => {
    const files = {
      'MEMORY.md': '- [A](a.md)\n<!-- memdir-disable MEM005 -->\nProse kept on purpose.\n<!-- memdir-enable MEM005 -->\nMore prose.\n<!-- memdir-disable -->\nHidden prose.\n',
    };
    const lines = lintDirectory(rawDirectory('/mem', files), DEFAULT_CONFIG)
      .filter((f) => f.ruleId === 'MEM005')
      .map((f) => f.line);
    expect(lines).toEqual([5]);
    expect(disabledSpans(files['MEMORY.md'])).toHaveLength(2);
  });
});

describe('config', () => {
  test('rules by id, name or tag; the specific setting wins over the tag', () => {
    const config = validateConfig({ rules: { index: 'off', 'dead-pointer': 'warn', MEM014: 'error' }, skipIndex: true, ignore: ['archive/**'] }, 'memdir.config.json', RULES);
    const files = { 'MEMORY.md': '- [Gone](gone.md)\nprose\n', 'a.md': '---\nname: A\ndescription: notes\ntype: user\n---\n' };
    const findings = lintDirectory(rawDirectory('/mem', files), config);
    expect(findings.map((f) => `${f.ruleId}:${f.severity}`)).toEqual(['MEM006:warning', 'MEM014:error']);
  });
  test.each([
    [{ rules: { MEM999: 'off' } }, 'memdir.config.json: rules.MEM999: unknown rule id, name or tag'],
    [{ rules: { MEM001: 'loud' } }, 'memdir.config.json: rules.MEM001: must be one of off, info, warning, error'],
    [{ ignore: 'x' }, 'memdir.config.json: ignore: must be an array of glob strings'],
    [{ skipIndex: 'yes' }, 'memdir.config.json: skipIndex: must be true or false'],
    [{ extends: 'x' }, 'memdir.config.json: extends: unknown key (expected rules, ignore, skipIndex, recall, extract, session, docs, dream, sync, guard, hooks)'],
  ])('%j → %s', (value, message) => expect(() => validateConfig(value, 'memdir.config.json', RULES)).toThrow(message));
});
