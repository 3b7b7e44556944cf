import { createRequire } from 'node:module';

// Made on first use: most hook runs never load an optional module.
let require: NodeJS.Require | undefined;
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
    module = (require ??= createRequire(import.meta.url))(id) as T;
    loaded.set(id, module);
  }
  return module;
}
