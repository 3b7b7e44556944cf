import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './run-cli.js';

/** Real test data from public repositories, copied from ../shared/fixtures with their licences (see SOURCES.md there). */
export const sharedFixtures = path.join(repoRoot, 'test/fixtures/shared');

/** Every memory directory (a folder holding MEMORY.md or topic files) under fixtures/memory. */
export function fixtureMemoryDirs(): string[] {
  const root = path.join(sharedFixtures, 'memory');
  return fs
    .readdirSync(root)
    .map((repo) => path.join(root, repo, '.claude/memory'))
    .filter((dir) => fs.existsSync(dir));
}

/** Every Markdown file of every fixture memory directory. */
export function fixtureMemoryFiles(): string[] {
  return fixtureMemoryDirs().flatMap((dir) =>
    fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => path.join(dir, f)),
  );
}

/** `memdir save` arguments of the merge-freeze memory the end-to-end tests ask the agent about. */
export const SAVE_MERGE_FREEZE = [
  'save',
  '--type',
  'project',
  '--name',
  'Mobile merge freeze',
  '--description',
  'No merges to main while mobile cuts the release; freeze ends 2026-03-05',
  '--body',
  'Merge freeze on main until 2026-03-05 for the mobile release.\n\n**Why:** the release branch is cut from main.\n**How to apply:** hold merges of the mobile branch until then.',
];
