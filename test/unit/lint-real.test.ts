import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { formatContext } from '../../src/lint/command.js';
import { FORMATTERS } from '../../src/lint/formatters/index.js';
import { runLint } from '../../src/lint/run.js';
import { RULES } from '../../src/lint/rules/index.js';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/temp.js';

const require = createRequire(import.meta.url);
const plain = { red: String, yellow: String, blue: String, dim: String, bold: String, underline: String } as never;

function copy(dir: string): string {
  const target = path.join(tempDir(), path.basename(path.dirname(path.dirname(dir))));
  fs.cpSync(dir, target, { recursive: true });
  return target;
}

describe('real memory directories', () => {
  test.each(fixtureMemoryDirs().map((d) => [path.basename(path.dirname(path.dirname(d))), d]))('%s lints without crashing; findings per rule', async (_name, dir) => {
    const [result] = await runLint([{ dir: copy(dir) }], { config: () => DEFAULT_CONFIG });
    const perRule: Record<string, number> = {};
    for (const f of result!.findings) perRule[f.ruleId] = (perRule[f.ruleId] ?? 0) + 1;
    expect(perRule).toMatchSnapshot();
  });

  test('the all-prose ActorForth index is reported as one block of non-pointer content', async () => {
    const dir = fixtureMemoryDirs().find((d) => d.includes('ActorForth'))!;
    const [result] = await runLint([{ dir: copy(dir) }], { config: () => DEFAULT_CONFIG });
    const content = result!.findings.filter((f) => f.ruleId === 'MEM005');
    // One block, not one finding per paragraph.
    expect(content.map((f) => [f.file, f.line])).toEqual([['MEMORY.md', 4]]);
    expect(content[0]!.endLine).toBeGreaterThan(150);
  });
});

describe('SARIF', () => {
  test('output validates against the SARIF 2.1.0 schema and carries rule metadata', async () => {
    const schema = JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve('@microsoft/jest-sarif/package.json')), 'lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
    const dirs = fixtureMemoryDirs().map(copy);
    const results = await runLint(
      dirs.map((dir) => ({ dir })),
      { config: () => DEFAULT_CONFIG },
    );
    const log = JSON.parse(FORMATTERS.sarif!(results, formatContext(process.cwd(), plain)));
    const ajv = new Ajv({ schemaId: 'auto', validateSchema: false, allErrors: true });
    ajv.addMetaSchema(JSON.parse(fs.readFileSync(require.resolve('ajv/lib/refs/json-schema-draft-04.json'), 'utf8')));
    const valid = ajv.validate(schema, log);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    const run = log.runs[0];
    expect(run.tool.driver.rules).toHaveLength(RULES.length);
    expect(run.tool.driver.rules[5]).toMatchObject({ id: 'MEM006', name: 'dead-pointer', helpUri: expect.stringMatching(/^file:.*docs\/rules\/MEM006\.md$/) });
    expect(run.results.length).toBe(results.flatMap((r) => r.findings).length);
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
  });
});
