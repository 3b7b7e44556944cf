import { describe, expect, test } from 'vitest';
import { citations } from '../../src/dream/drift.js';

describe('what a line cites', () => {
  test.each([
    ['Call `parseConfig()` first', [['symbol', 'parseConfig']]],
    ['`api.fetchUser(id)` retries', [['symbol', 'fetchUser']]],
    [
      '`UserService` and `MAX_RETRIES`',
      [
        ['symbol', 'UserService'],
        ['symbol', 'MAX_RETRIES'],
      ],
    ],
    [
      '`--dry-run` and `--force=yes`',
      [
        ['flag', 'dry-run'],
        ['flag', 'force'],
      ],
    ],
    [
      '`npm run build:prod`, `pnpm lint`, `yarn run x`',
      [
        ['script', 'build:prod'],
        ['script', 'lint'],
        ['script', 'x'],
      ],
    ],
    [
      '`make -j4 release` or `just seed dev`',
      [
        ['make', 'release'],
        ['just', 'seed'],
      ],
    ],
    [
      '`./scripts/deploy.sh prod` and `bin/setup`',
      [
        ['file', 'scripts/deploy.sh'],
        ['file', 'bin/setup'],
      ],
    ],
    ['Words in code are not code: `main`, `users`, `config.yaml`, `pnpm install`, `git push --force`', []],
    ['Not in a code span: parseConfig() and npm run build', []],
  ])('%s', (line, expected) => {
    expect(citations(line).map((c) => [c.kind, c.name])).toEqual(expected);
  });
});
