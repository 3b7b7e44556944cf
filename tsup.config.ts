import { builtinModules, createRequire } from 'node:module';
import { defineConfig, type Options } from 'tsup';

// Loaded on demand (dynamic import or lazyRequire), so kept out of the bundles.
const external = ['simple-git', '@anthropic-ai/sdk', 'gray-matter', 'chrono-node', 'diff'];

/**
 * Node's built-in modules as ES modules of the bundle, so `import fs from 'node:fs'` in forty
 * files becomes one `require('fs')` and plain variables. Left to esbuild, each importing file
 * wraps the module in its own copy (`__toESM`, a getter per export): ~3.5 ms of every hook start.
 */
const builtinsOnce: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'builtins-once',
  setup(build) {
    const names = new Set(builtinModules);
    const require = createRequire(import.meta.url);
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, ({ path, namespace }) => {
      const name = path.replace(/^node:/, '');
      if (namespace === 'builtin') return { path, external: true }; // the one real require
      return names.has(name) && !name.includes('/') ? { path: name, namespace: 'builtin' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path }) => {
      // Plain values only: a getter (fs.promises, fs.ReadStream) loads more modules when read.
      const module = require(path) as object;
      const exported = Object.keys(module).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default' && 'value' in Object.getOwnPropertyDescriptor(module, key)!);
      return { contents: `const m = require(${JSON.stringify(`node:${path}`)});\nexport default m;\nexport const { ${exported.join(', ')} } = m;\n`, loader: 'js' };
    });
  },
};

export default defineConfig([
  // The CLI: one CommonJS file. Node 20 loads it ~20 ms faster than the same code as ES
  // modules split in chunks, and hooks run it on every commit and prompt. yargs, picocolors
  // and stemmer (an ES module: required, it loads Node's ES module loader) are bundled;
  // heavy dependencies load only in the commands that need them.
  {
    // Each `src/fast/<command>.ts` is the hook fast path of one command (see bin/memdir.cjs);
    // bin/memdir.cjs loads these bundles through `code-cache` (a V8 code cache on Node 20).
    entry: {
      cli: 'src/cli.ts',
      'code-cache': 'src/shell/code-cache.ts',
      'fast/context': 'src/fast/context.ts',
      'fast/extract': 'src/fast/extract.ts',
      'fast/recall': 'src/fast/recall.ts',
      'fast/dream': 'src/fast/dream.ts',
      'fast/sync': 'src/fast/sync.ts',
      'fast/where': 'src/fast/where.ts',
    },
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    target: 'node20',
    platform: 'node',
    splitting: false,
    shims: true,
    clean: true,
    noExternal: ['yargs', 'picocolors', 'stemmer'],
    external,
    // The plugin sees `node:` imports only when tsup does not strip the prefix (and mark them external) first.
    removeNodeProtocol: false,
    esbuildPlugins: [builtinsOnce],
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
