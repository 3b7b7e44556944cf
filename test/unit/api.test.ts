import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { doctor, extract, lint, recall, refactor, saveMemory } from '../../src/index.js';
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

test('doctor, as a function: a folder two projects share is an error finding', () => {
  const root = tempDir();
  const home = path.join(root, 'home');
  for (const name of ['my.app', 'my-app']) fs.mkdirSync(path.join(root, name, '.git'), { recursive: true });
  const folder = path.join(home, '.claude', 'projects', path.join(root, 'my-app').replace(/[^a-zA-Z0-9]/g, '-'));
  fs.mkdirSync(path.join(folder, 'memory'), { recursive: true });
  for (const [session, name] of [
    ['s1', 'my.app'],
    ['s2', 'my-app'],
  ] as const)
    fs.writeFileSync(path.join(folder, `${session}.jsonl`), `${JSON.stringify({ type: 'user', cwd: path.join(root, name), sessionId: session })}\n`);
  const result = doctor({ cwd: path.join(root, 'my-app'), env: { HOME: home, PATH: '' } });
  expect([result.counts.error, result.findings.find((f) => f.severity === 'error')?.id]).toEqual([1, 'collision']);
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
    'docs',
    'doctor',
    'dream',
    'exportMemory',
    'extract',
    'forgetMemory',
    'importMemory',
    'keepSessionNotes',
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
