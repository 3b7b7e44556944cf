import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyRequire } from '../core/lazy.js';
import { isObject } from './sections.js';
import type { ConfigurableRule } from './validate.js';

/**
 * The package's `dist/lint-rules.cjs`: the lint rules in a bundle of their own. Bundled into the
 * hook fast paths (even behind a dynamic import) they cost every prompt's hook ~15 ms; required
 * from here, only a run whose config names rules pays for them.
 */
function rulesBundle(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'lint-rules.cjs');
}

/** The lint rules whose ids, names, tags and options a config file may name; none to load when no file has a `rules` key. */
export function rulesNamedIn(values: readonly unknown[]): readonly ConfigurableRule[] {
  if (!values.some((value) => isObject(value) && 'rules' in value)) return [];
  return lazyRequire<{ RULES: readonly ConfigurableRule[] }>(rulesBundle()).RULES;
}
