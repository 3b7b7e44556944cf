/**
 * `memdir dream` on real memory directories from public repositories: every directory of
 * test/fixtures/real (MEMDIR_REAL_CORPUS points elsewhere) and of the shared fixtures is copied to a
 * temp dir and consolidated. Each directory is its own test, so a failure names it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { diffArrays } from 'diff';
import { describe, expect, test } from 'vitest';
import { parseMemoryIndex } from '../../src/core/memory-index.js';
import { ruleWords, standingRules } from '../../src/core/standing-rules.js';
import { loadIndex } from '../../src/core/load-model.js';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';
import { cleanEnv, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir } from '../helpers/temp.js';

const realCorpus = process.env.MEMDIR_REAL_CORPUS ?? path.join(repoRoot, 'test/fixtures/real');

const corpus = [
  ...fs
    .readdirSync(realCorpus, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => ({ name: `real/${e.name}`, source: path.join(realCorpus, e.name) })),
  ...fixtureMemoryDirs().map((source) => ({ name: `shared/${path.basename(path.dirname(path.dirname(source)))}`, source })),
];

/** The memory files only: not memdir's state, not the consolidation lock. */
const memories = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).filter(([k]) => !k.startsWith('.')));

const text = (tree: Record<string, string>, file: string) => (tree[file] === undefined ? undefined : Buffer.from(tree[file]!, 'base64').toString('utf8'));

/** Words of the index the agent loads, with how often each occurs. */
function loadedWords(index: string | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of ruleWords(loadIndex(index ?? '').loaded)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** Lines added to a file that were not there in another form (a rewrite replaces a line; an insertion adds one). */
function insertedLines(before: string, after: string): string[] {
  const parts = diffArrays(before.split('\n'), after.split('\n'));
  return parts.flatMap((part, i) => (part.added && !parts[i - 1]?.removed ? part.value : []));
}

/**
 * What a default run may do on an index the agent loads whole: every word it loaded is still
 * loaded, no line it inserts into a topic file restates what the file held, and every file it
 * changes is named in its operations with a reason.
 */
function expectConservative(before: Record<string, string>, after: Record<string, string>, operations: Array<{ path: string; reason: string }>) {
  const still = loadedWords(text(after, 'MEMORY.md'));
  const lost = [...loadedWords(text(before, 'MEMORY.md'))].filter(([word, n]) => (still.get(word) ?? 0) < n).map(([word]) => word);
  expect(lost, 'words no longer loaded').toEqual([]);
  const named = new Set(operations.filter((o) => o.reason.trim()).map((o) => o.path));
  for (const file of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[file] === after[file]) continue;
    expect(named, `${file} changed without a reason`).toContain(file);
    const was = text(before, file);
    const now = text(after, file);
    if (file === 'MEMORY.md' || was === undefined || now === undefined) continue;
    const held = new Set(ruleWords(was));
    const restating = insertedLines(was, now).filter((line) => ruleWords(line).length > 0 && ruleWords(line).every((w) => held.has(w)));
    expect(restating, `${file}: inserted lines that restate it`).toEqual([]);
  }
}

function copy(source: string) {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  fs.cpSync(source, dir, { recursive: true });
  return { root, dir, env: cleanEnv(root) };
}

describe('memdir dream on real directories', () => {
  test.each(corpus)(
    '$name: consolidates without losing a line (on an index loaded whole: every loaded word still loaded, nothing restated, every change named); a second run changes nothing; undo restores the bytes',
    async ({ source }) => {
      const { root, dir, env } = copy(source);
      const before = snapshotTree(dir);
      // No budget: these directories were not written for it, and what is deleted is undone below.
      const first = await runMemdir(['dream', '--dir', dir, '--force', '--max-delete', '100000', '--json'], { cwd: root, env });
      expect(first.code, first.stderr).toBe(0);
      const { status, operations } = JSON.parse(first.stdout);
      expect(['applied', 'unchanged']).toContain(status);
      const loaded = loadIndex(text(before, 'MEMORY.md') ?? '');
      if (!loaded.wasLineTruncated && !loaded.wasByteTruncated) expectConservative(memories(before), memories(snapshotTree(dir)), operations);
      // Every index, also one restructured to fit: a rule on a pointer line the agent loaded is still loaded.
      const loadedAfter = new Set(ruleWords(loadIndex(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).loaded));
      const loadedBefore = new Set(loaded.fileLines.slice(0, loaded.loadedLines));
      const pointerRules = parseMemoryIndex(text(before, 'MEMORY.md') ?? '')
        .lines.filter((line) => line.kind === 'pointer' && loadedBefore.has(line.line))
        .flatMap((line) => standingRules(line.raw));
      expect(pointerRules.filter((rule) => !rule.words.every((w) => loadedAfter.has(w))).map((rule) => rule.clause)).toEqual([]);
      const second = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: root, env });
      expect(JSON.parse(second.stdout).status).toBe('unchanged');
      if (status === 'applied') expect((await runMemdir(['dream', '--dir', dir, '--undo'], { cwd: root, env })).code).toBe(0);
      expect(memories(snapshotTree(dir))).toEqual(memories(before));
    },
  );

  test('an over-limit index whose pointers mostly name files kept elsewhere: none is dropped (said once), the index is made to fit, every standing rule still loaded', async () => {
    // 4444J99/portfolio: 16 topic files committed, ~190 pointers; the rest are kept out of git, as lint's MEM006 reads it.
    const { root, dir, env } = copy(path.join(repoRoot, 'test/fixtures/real/4444J99+portfolio'));
    const run = await runMemdir(['dream', '--dir', dir, '--force', '--json'], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.summary).toMatch(/^Improved \d+ memories \(0 merged, 0 dates, 0 pruned, MEMORY\.md rewritten\)$/);
    expect(result.warnings.filter((w: { message: string }) => /pointers lead to files not in this directory .*; none is dropped$/.test(w.message))).toHaveLength(1);
    const indexes = fs
      .readdirSync(dir)
      .filter((file) => file === 'MEMORY.md' || /^index_\w+\.md$/.test(file))
      .map((file) => fs.readFileSync(path.join(dir, file), 'utf8'))
      .join('\n');
    expect(indexes).toContain('(project_session_2026-04-27_seven_layer_cascade.md)');
    expect(result.agentView.rules.after).toBe(result.agentView.rules.before);
    expect(loadIndex(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).wasLineTruncated).toBe(false);
  });
});
