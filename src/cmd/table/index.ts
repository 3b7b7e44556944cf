/**
 * Every command's table. The build reads the fast paths from here (tsup.config.ts): a
 * `dist/fast/<name>.cjs` bundle of `src/fast/<name>.ts` each, and `dist/fast-paths.json`, the list
 * bin/memdir.cjs consults before it loads one.
 */
import type { CommandTable } from '../../shell/command-table.js';
import { completion } from './completion.js';
import { context } from './context.js';
import { doctor } from './doctor.js';
import { docs } from './docs.js';
import { dream } from './dream.js';
import { exportTable } from './export.js';
import { extract } from './extract.js';
import { forget } from './forget.js';
import { guard } from './guard.js';
import { hooks } from './hooks.js';
import { importTable } from './import.js';
import { lint } from './lint.js';
import { list } from './list.js';
import { recall } from './recall.js';
import { refactor } from './refactor.js';
import { save } from './save.js';
import { session } from './session.js';
import { show } from './show.js';
import { sync } from './sync.js';
import { where } from './where.js';

export const TABLES: readonly CommandTable[] = [
  where,
  context,
  save,
  forget,
  list,
  show,
  lint,
  refactor,
  recall,
  extract,
  session,
  docs,
  dream,
  sync,
  exportTable,
  importTable,
  guard,
  hooks,
  doctor,
  completion,
];

/** bin/memdir.cjs's list: each command with a fast path, and the flag a command line needs for it ('' for none). */
export function fastPaths(tables: readonly CommandTable[] = TABLES): Record<string, string> {
  return Object.fromEntries(tables.flatMap((table) => (table.fastPath ? [[table.name, table.fastPath.when === 'hook' ? '--hook' : '']] : [])));
}
