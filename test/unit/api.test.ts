import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { extract, lint, recall, refactor, saveMemory } from '../../src/index.js';
import { repoRoot } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

test('the library API mirrors the commands', async () => {
  const dir = path.join(tempDir(), 'memory');
  fs.cpSync(path.join(repoRoot, 'examples/rotting-memory'), dir, { recursive: true });
  await saveMemory(dir, { type: 'user', name: 'Role', description: 'User is a data engineer on the billing team', body: 'Data engineer.' });

  const [linted] = await lint({ dirs: [dir], cwd: dir });
  expect(linted!.findings.map((f) => f.ruleId)).toContain('MEM006');

  const dry = await refactor(dir, { dryRun: true });
  expect(dry.written).toBe(false);
  expect(dry.plan.operations.some((o) => o.kind === 'create')).toBe(true);
  expect(dry.view.counts.created).toBeGreaterThan(0);

  const recalled = await recall({ dir, query: 'can I merge to main during the mobile release?', engine: 'local' });
  expect(recalled.memories.map((m) => m.path)).toEqual(['project_merge_freeze.md']);
  expect(recalled.memories[0]!.text).toMatch(/^(Memory \(saved today\)|This memory is)/);

  const transcript = path.join(dir, '..', 'session.jsonl');
  fs.writeFileSync(
    transcript,
    `${JSON.stringify({ type: 'user', uuid: 'u1', sessionId: 's1', timestamp: '2026-03-02T10:00:00Z', message: { role: 'user', content: 'Never commit directly to main, always open a PR.' } })}\n`,
  );
  const extracted = await extract({ dir, transcript, engine: 'local', dryRun: true });
  expect(extracted.operations).toMatchObject([{ op: 'create', type: 'feedback', sources: ['u1'] }]);
});

test('the public API is the commands, their types and errors, nothing internal', async () => {
  const api = await import('../../src/index.js');
  expect(Object.keys(api).sort()).toEqual([
    'ConfigError',
    'DEFAULT_CONFIG',
    'ExitCode',
    'InputError',
    'IoError',
    'MEMORY_TYPES',
    'MemdirError',
    'RULES',
    'RefusedError',
    'UsageError',
    'acceptCandidate',
    'applyMemoryEdits',
    'discardCandidate',
    'dream',
    'exportMemory',
    'extract',
    'forgetMemory',
    'importMemory',
    'lint',
    'listCandidates',
    'listMemories',
    'recall',
    'refactor',
    'resolveMemoryDir',
    'saveMemory',
    'sessionContext',
    'showMemory',
    'validateConfig',
  ]);
});
