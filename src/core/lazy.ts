import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const loaded = new Map<string, unknown>();

/**
 * A dependency loaded on first use, synchronously. Parsers memdir rarely
 * needs (the YAML engine for unusual frontmatter, the natural-language date
 * parser for text with relative dates) stay out of startup: hooks run
 * memdir on every commit and prompt.
 */
export function lazyRequire<T>(id: string): T {
  let module = loaded.get(id) as T | undefined;
  if (module === undefined) {
    module = require(id) as T;
    loaded.set(id, module);
  }
  return module;
}
