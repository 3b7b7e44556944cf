import { defineConfig } from 'tsup';

// Loaded on demand (dynamic import or lazyRequire), so kept out of the bundles.
const external = ['simple-git', '@anthropic-ai/sdk', 'gray-matter', 'chrono-node', 'diff'];

export default defineConfig([
  // The CLI: one CommonJS file. Node 20 loads it ~20 ms faster than the same code as ES
  // modules split in chunks, and hooks run it on every commit and prompt. yargs, picocolors
  // and stemmer (an ES module: required, it loads Node's ES module loader) are bundled;
  // heavy dependencies load only in the commands that need them.
  {
    // Each `src/fast/<command>.ts` is the hook fast path of one command (see bin/memdir.cjs);
    // bin/memdir.cjs loads these bundles through `code-cache` (a V8 code cache on Node 20).
    entry: { cli: 'src/cli.ts', 'code-cache': 'src/shell/code-cache.ts', 'fast/extract': 'src/fast/extract.ts', 'fast/recall': 'src/fast/recall.ts', 'fast/dream': 'src/fast/dream.ts', 'fast/sync': 'src/fast/sync.ts' },
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    target: 'node20',
    platform: 'node',
    splitting: false,
    shims: true,
    clean: true,
    noExternal: ['yargs', 'picocolors', 'stemmer'],
    external,
  },
  // The library API, as ES modules with types, and the internals our scripts and benchmarks use.
  {
    entry: { index: 'src/index.ts', internal: 'src/internal.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    // Type declarations are for library users; the test build (MEMDIR_BUILD_TYPES=0) skips them.
    dts: process.env.MEMDIR_BUILD_TYPES !== '0',
    external: [...external, 'yargs', 'picocolors', 'fast-glob', 'stemmer'],
  },
]);
