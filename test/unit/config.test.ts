import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, test } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { configSchema } from '../../src/config/schema.js';
import { fieldProblem, SECTIONS, sectionSettings, type SectionName, type SectionSpec } from '../../src/config/sections.js';
import { validateConfig } from '../../src/config/validate.js';
import { lintDirectory } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { rawDirectory } from '../../src/core/dir-model.js';
import { cleanEnv, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const validate = (value: unknown) => validateConfig(value, 'memdir.config.json', RULES);
const longLine = `- [Role](user_role.md) — ${'x'.repeat(160)}`;
const files = { 'MEMORY.md': `${longLine}\n`, 'user_role.md': '---\nname: Role\ndescription: data engineer on the billing team\ntype: user\n---\nBody.\n' };
const lineFindings = (value: unknown) => lintDirectory(rawDirectory('/mem', files), validate(value)).filter((f) => f.ruleId === 'MEM004');

const VALID: unknown[] = [
  {},
  { $schema: './node_modules/memdir/memdir.config.schema.json', rules: { MEM004: 'off', style: 'warn', 'dead-pointer': 2 }, ignore: ['archive/**'], skipIndex: true },
  { rules: { MEM004: { max: 200 }, 'near-duplicate': { severity: 'error', threshold: 0.8 }, index: { severity: 'off' } } },
  {
    recall: { limit: 3, engine: 'local' },
    extract: { every: 2 },
    dream: { minHours: 12, minSessions: 3, maxDelete: 10 },
    sync: { backend: 'git', remote: 'origin', redact: true },
    hooks: { command: 'npx memdir' },
  },
];
const INVALID: Array<[unknown, string]> = [
  [{ dream: { minHours: -1 } }, 'dream.minHours: must be a number ≥ 0'],
  [{ dream: { everyDay: true } }, 'dream.everyDay: unknown key (expected engine, model, minHours, minSessions, maxDelete, restructure)'],
  [{ recall: { limit: 2.5 } }, 'recall.limit: must be an integer'],
  [{ recall: { engine: 'gpt' } }, 'recall.engine: must be one of auto, local, claude'],
  [{ sync: 'git' }, 'sync: must be an object'],
  [{ rules: { MEM004: { max: '150' } } }, 'rules.MEM004.max: must be an integer'],
  [{ rules: { MEM004: { width: 150 } } }, 'rules.MEM004.width: unknown option (expected severity, max)'],
  [{ rules: { MEM001: { max: 1 } } }, 'rules.MEM001.max: unknown option (this rule takes only severity)'],
  [{ rules: { style: { max: 1 } } }, 'rules.style.max: unknown option (this rule takes only severity)'],
  [{ rules: { MEM004: { severity: 'loud' } } }, 'rules.MEM004.severity: must be one of off, info, warning, error'],
];

describe('config sections', () => {
  test('a section for each feature is accepted and kept', () => {
    const config = validate(VALID[3]);
    expect(config.dream).toEqual({ minHours: 12, minSessions: 3, maxDelete: 10 });
    expect(config.recall).toEqual({ limit: 3, engine: 'local' });
  });

  test.each(INVALID)('%j → %s', (value, message) => expect(() => validate(value)).toThrow(`memdir.config.json: ${message}`));
});

describe('memdir lint with sections for other features', () => {
  test('a dream or sync section does not break lint; a rule option in the file is honoured', async () => {
    const dir = tempDir();
    writeTree(dir, { ...files, 'memdir.config.json': JSON.stringify({ dream: { minHours: 12 }, sync: { remote: 'origin' }, rules: { MEM004: { max: 200 } } }) });
    const result = await runMemdir(['lint', '--dir', dir, '-f', 'json'], { cwd: dir, env: cleanEnv(dir) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).results).toEqual([]);
  });
});

describe('rule options', () => {
  test('defaults apply; an option set by id or by name changes what the rule reports', () => {
    expect(lineFindings({})).toHaveLength(1);
    expect(lineFindings({ rules: { MEM004: { max: 200 } } })).toEqual([]);
    expect(lineFindings({ rules: { 'index-line-length': { max: 200 } } })).toEqual([]);
    const strict = lineFindings({ rules: { MEM004: { max: 100, severity: 'error' } } });
    expect(strict.map((f) => [f.severity, f.column])).toEqual([['error', 101]]);
  });
});

describe('JSON schema', () => {
  const schema = configSchema(RULES, pkg.version);

  test('memdir.config.schema.json is the one the specs generate', () => {
    const shipped = JSON.parse(fs.readFileSync(path.join(repoRoot, 'memdir.config.schema.json'), 'utf8'));
    expect(shipped, 'run `npm run build && npm run docs:schema`').toEqual(schema);
  });

  test('the schema and the validator agree on valid and invalid files', () => {
    const check = new Ajv({ allErrors: true }).compile(schema);
    for (const value of VALID) expect(check(value), JSON.stringify(check.errors)).toBe(true);
    for (const [value] of INVALID) expect(check(value), JSON.stringify(value)).toBe(false);
  });
});

describe('features read their own section', () => {
  test('recall takes its limit from the recall section; a flag wins over it', async () => {
    const dir = tempDir();
    const memories = Object.fromEntries(
      ['alpha', 'beta', 'gamma'].map((n) => [`project_${n}.md`, `---\nname: Deploy ${n}\ndescription: Deploy ${n} of the billing service on Fridays\ntype: project\n---\nDeploy ${n}.\n`]),
    );
    writeTree(dir, { ...memories, 'memdir.config.json': JSON.stringify({ recall: { limit: 1, engine: 'local' } }) });
    const run = (extra: string[]) => runMemdir(['recall', '--dir', dir, '--json', ...extra, 'deploy the billing service'], { cwd: dir, env: cleanEnv(dir) });
    expect(JSON.parse((await run([])).stdout).selected).toHaveLength(1);
    expect(JSON.parse((await run(['--limit', '3'])).stdout).selected).toHaveLength(3);
  });
});

describe('defaults beside their fields', () => {
  const fields = Object.entries(SECTIONS).flatMap(([section, specs]) => Object.entries(specs as SectionSpec).map(([key, spec]) => [`${section}.${key}`, spec] as const));
  const sections = (configSchema(RULES, pkg.version).properties ?? {}) as Record<string, { properties: Record<string, { default?: unknown }> }>;

  test.each(fields.filter(([, spec]) => spec.default !== undefined))('%s: its default is valid for it, in the schema, and what a command uses', (name, spec) => {
    const [section, key] = name.split('.') as [SectionName, string];
    expect(fieldProblem(spec, spec.default)).toBeUndefined();
    expect(validate({ [section]: { [key]: spec.default } })[section]).toEqual({ [key]: spec.default });
    expect(sections[section]?.properties[key]?.default).toEqual(spec.default);
    expect((sectionSettings(section, {}) as Record<string, unknown>)[key]).toEqual(spec.default);
  });

  test('the gate, limit and budget defaults commands fall back on', () => {
    expect(sectionSettings('dream', {})).toEqual({ engine: 'local', minHours: 24, minSessions: 5, maxDelete: 25, restructure: false });
    expect(sectionSettings('recall', { limit: 2 })).toEqual({ limit: 2, engine: 'auto', semantic: true });
    expect(sectionSettings('sync', {})).toEqual({ backend: 'git', remote: 'origin', redact: false });
  });

  test('docs/configuration.md lists every section key with the default the spec declares', () => {
    const doc = fs.readFileSync(path.join(repoRoot, 'docs/configuration.md'), 'utf8');
    const rows = new Map([...doc.matchAll(/^\| `([a-z]+\.[A-Za-z]+)` \| [^|]+ \| ([^|]+) \|/gm)].map((m) => [m[1], m[2]!.trim()]));
    expect([...rows.keys()]).toEqual(fields.map(([name]) => name));
    for (const [name, spec] of fields) expect(rows.get(name), name).toEqual(spec.default === undefined ? expect.stringMatching(/^—/) : `\`${spec.default}\``);
  });

  test('a key without a default has none in the schema either', () => {
    for (const [name] of fields.filter(([, spec]) => spec.default === undefined)) {
      const [section, key] = name.split('.') as [SectionName, string];
      expect(sections[section]?.properties[key], name).not.toHaveProperty('default');
    }
  });
});
