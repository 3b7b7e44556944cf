import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { findDurableStatement, judgeMessage } from '../../src/core/durable-statements.js';
import { repoRoot } from '../helpers/run-cli.js';

const TASK_AT_HAND = 'points at the work at hand ("this …", "for now", "today", pasted output)';

describe('judgeMessage: the durable statement and the candidates passed over on the way', () => {
  test('finds exactly what findDurableStatement finds, on every message of the labelled sets, with and without explicitOnly', () => {
    const bench = path.join(repoRoot, 'bench/extract');
    const texts = fs
      .readdirSync(bench)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) =>
        fs
          .readFileSync(path.join(bench, f), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { text: string }).text),
      );
    expect(texts.length).toBeGreaterThan(2000);
    let passed = 0;
    for (const text of texts) {
      for (const explicitOnly of [false, true]) {
        const verdict = judgeMessage(text, { explicitOnly });
        expect(verdict.found, text).toEqual(findDurableStatement(text, { explicitOnly }));
        passed += verdict.passed.length;
      }
    }
    // Real prompts do hold candidates that are passed over: the report is not empty by construction.
    expect(passed).toBeGreaterThan(50);
  });

  test.each<[string, boolean, ReturnType<typeof judgeMessage>['passed']]>([
    ['fix the failing login test', false, []],
    ['From now on, write commit messages in the imperative mood.', false, []],
    // A standing instruction to the agent is kept in the Stop hook's mode too.
    ['From now on, write commit messages in the imperative mood.', true, []],
    [
      'The staging database is wiped every Sunday night.',
      true,
      [
        {
          statement: 'The staging database is wiped every Sunday night.',
          kind: 'project',
          decision: 'not-asked',
          reason: 'inferred, not asked for: this run keeps explicit requests and standing instructions only',
        },
      ],
    ],
    ['never touch this file again, it is generated', false, [{ statement: 'never touch this file again, it is generated', kind: 'standing', decision: 'task-scoped', reason: TASK_AT_HAND }]],
    ['remember: ok', false, [{ statement: 'ok', kind: 'explicit', decision: 'not-durable', reason: 'too short to say anything on its own' }]],
    [
      'Remember that this test code is only meant to cover the parser.',
      true,
      [{ statement: 'this test code is only meant to cover the parser.', kind: 'explicit', decision: 'task-scoped', reason: 'asks to keep in mind the work at hand ("this test…")' }],
    ],
    [
      'Which approach is better?\n1. always use Redis\n2. never cache',
      false,
      [
        { statement: '1. always use Redis', kind: 'standing', decision: 'not-durable', reason: 'an option listed after a question' },
        { statement: '2. never cache', kind: 'standing', decision: 'not-durable', reason: 'an option listed after a question' },
      ],
    ],
    [
      `${'x '.repeat(1100)}\nplease remember that the staging DB is wiped on Sundays.`,
      false,
      [
        {
          statement: 'please remember that the staging DB is wiped on Sundays.',
          kind: 'explicit',
          decision: 'not-durable',
          reason: 'in a message over 2000 characters, which is not read (a paste or a spec)',
        },
      ],
    ],
  ])('%j (explicitOnly: %s)', (text, explicitOnly, passed) => {
    expect(judgeMessage(text, { explicitOnly }).passed).toEqual(passed);
  });
});
