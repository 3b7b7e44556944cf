import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { parseMemoryIndex } from '../../src/core/memory-index.js';
import { findSecrets } from '../../src/core/secrets.js';
import { runLint } from '../../src/lint/run.js';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';
import { repoRoot } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * `lint --fix` over every fixture directory (the rule fixtures, the shared real directories and
 * the real corpus when present): only the intended spans change (relative dates become ISO
 * dates, frontmatter values get quoted, index lines are pointers added or dropped), nothing
 * else is lost, a second --fix changes nothing, and no secret reaches MEMORY.md or any output.
 */
const FIXED_TIME = new Date('2026-03-01T12:00:00Z');
const realCorpus = process.env.MEMDIR_REAL_CORPUS ?? path.join(repoRoot, 'test/fixtures/real');
const lintFixtures = path.join(repoRoot, 'test/fixtures/lint');
const dirs = [
  ...fs.readdirSync(lintFixtures).map((name) => [`lint/${name}`, path.join(lintFixtures, name)]),
  ...fixtureMemoryDirs().map((dir) => [`shared/${path.basename(path.dirname(path.dirname(dir)))}`, dir]),
  ...(fs.existsSync(realCorpus)
    ? fs
        .readdirSync(realCorpus, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => [`real/${e.name}`, path.join(realCorpus, e.name)])
    : []),
];

function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, full), fs.readFileSync(full, 'utf8'));
  }
  return files;
}

function copy(source: string): string {
  const dir = path.join(tempDir(), 'memory');
  fs.cpSync(source, dir, { recursive: true, verbatimSymlinks: true });
  fs.rmSync(path.join(dir, 'expected.txt'), { force: true });
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) if (entry.isFile()) fs.utimesSync(path.join(entry.parentPath, entry.name), FIXED_TIME, FIXED_TIME);
  return dir;
}

const DATE = /(?:week of )?\d{4}-\d{2}(?:-\d{2})?/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The lines of a topic file changed otherwise than by a relative date made absolute (each ISO
 * date of the new line stands for at most a few words of the old one) or a value quoted.
 */
function unintendedTopicChanges(before: string, after: string): string[] {
  const old = before.split('\n');
  const now = after.split('\n');
  if (old.length !== now.length) return [`line count ${old.length} → ${now.length}`];
  return now.flatMap((line, i) => {
    if (line === old[i]) return [];
    const pattern = line
      .split(DATE)
      .map((piece) => escapeRegExp(piece).replace(/\\?"/g, '"?').replace(/\\\\/g, '\\\\?'))
      .join('[^\\n]{1,40}?');
    return new RegExp(`^${pattern}$`).test(old[i]!) ? [] : [`${i + 1}: ${JSON.stringify(old[i])} → ${JSON.stringify(line)}`];
  });
}

describe.each(dirs)('%s', (_name, source) => {
  test('--fix changes only the intended spans, loses nothing, is idempotent and copies no secret', async () => {
    const dir = copy(source!);
    const before = readTree(dir);
    const [dry] = await runLint([{ dir }], { config: () => DEFAULT_CONFIG, fix: true, dryRun: true });
    const [fixed] = await runLint([{ dir }], { config: () => DEFAULT_CONFIG, fix: true });
    const after = readTree(dir);

    expect([...before.keys()].filter((file) => !after.has(file))).toEqual([]);
    for (const [file, text] of before) {
      const now = after.get(file)!;
      if (file === 'MEMORY.md') {
        // Only pointer lines come and go; every other line stays.
        const kept = parseMemoryIndex(now).lines.map((l) => l.raw);
        const lost = parseMemoryIndex(text).lines.filter((l) => l.kind !== 'pointer' && !kept.includes(l.raw));
        const added = parseMemoryIndex(now).lines.filter((l) => l.kind !== 'pointer' && l.kind !== 'blank' && !text.includes(l.raw));
        expect({ lost, added }).toEqual({ lost: [], added: [] });
      } else if (text !== now) {
        expect(unintendedTopicChanges(text, now)).toEqual([]);
      }
    }
    const secretsBefore = findSecrets(before.get('MEMORY.md') ?? '').length;
    expect(findSecrets(after.get('MEMORY.md') ?? '').length).toBeLessThanOrEqual(secretsBefore);
    // Reports and diffs never carry a secret value from any file.
    const printed = JSON.stringify(fixed!.findings) + JSON.stringify(dry!.findings) + dry!.diffs.join('');
    for (const text of before.values()) for (const hit of findSecrets(text)) expect(printed).not.toContain(text.slice(hit.index, hit.index + hit.length));

    const [again] = await runLint([{ dir }], { config: () => DEFAULT_CONFIG, fix: true });
    expect(again!.fixed).toEqual([]);
  });
});
