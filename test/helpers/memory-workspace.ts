import fs from 'node:fs';
import path from 'node:path';
import { cleanEnv } from './run-cli.js';
import { tempDir, writeTree } from './temp.js';

export const FREEZE_POINTER = '- [Merge freeze](project_freeze.md) — no merges to main during the mobile release freeze\n';

/** A memory directory holding one indexed memory (a merge freeze), a HOME, and a clean environment plus `env`. */
export function freezeWorkspace(env: NodeJS.ProcessEnv = {}) {
  const root = tempDir();
  const home = path.join(root, 'home');
  const dir = path.join(root, 'memory');
  fs.mkdirSync(home);
  writeTree(dir, {
    'MEMORY.md': FREEZE_POINTER,
    'project_freeze.md':
      '---\nname: Merge freeze\ndescription: No merges to main during the mobile release freeze\ntype: project\n---\n\nFreeze until the release ships.\n\n**Why:** release branch.\n**How to apply:** hold merges.\n',
  });
  return { root, dir, env: cleanEnv(home, env) };
}
