import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { CHECKED_RELEASES } from '../../src/core/load-model.js';

test("doctor's checked releases are the Claude Code releases package.json pins for the end-to-end tests", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const pinned = pkg.devDependencies['@anthropic-ai/claude-code']!;
  const latest = /^npm:@anthropic-ai\/claude-code@(.+)$/.exec(pkg.devDependencies['claude-code-latest'] ?? '')?.[1];
  expect([...CHECKED_RELEASES]).toEqual([pinned, latest]);
});
