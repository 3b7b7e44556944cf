import { builtinModules, createRequire } from 'node:module';
import { defineConfig, type Options } from 'tsup';
import { fastPaths } from './src/cmd/table/index.js';
import { gitleaksGate, gitleaksTable } from './src/core/secret-table.js';
import { memdirGateEntries } from './src/core/secrets.js';

/** The commands with a fast path, from their tables: the flag a command line needs for it ('' for none). */
const FAST_PATHS = fastPaths();

// Loaded on demand (dynamic import or lazyRequire), so kept out of the bundles.
const external = ['simple-git', '@anthropic-ai/sdk', 'gray-matter', 'chrono-node', 'diff'];

/**
 * Node's built-in modules as ES modules of the bundle, so `import fs from 'node:fs'` in forty
 * files becomes one `require('fs')` and plain variables. Left to esbuild, each importing file
 * wraps the module in its own copy (`__toESM`, a getter per export), work every hook start repeats
 * (bench `startup-tricks`; docs/architecture.md#start-up).
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
      // One pure statement per name, so the bundle keeps only the names it uses.
      const module = require(path) as object;
      const exported = Object.keys(module).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default' && 'value' in Object.getOwnPropertyDescriptor(module, key)!);
      return {
        contents: `const m = require(${JSON.stringify(`node:${path}`)});\nexport default m;\n${exported.map((name) => `export const ${name} = /* @__PURE__ */ (() => m.${name})();\n`).join('')}`,
        loader: 'js',
      };
    });
  },
};

/**
 * The CommonJS bundles with every non-ASCII character escaped (`\u00e9`). esbuild escapes string
 * literals but leaves regular expressions, template literals and comments as written, and a
 * single CJK character in a regular expression made the whole 140 KB hook bundle a two-byte string:
 * Node reads an ASCII file into a one-byte string several times faster, on every hook start (bench
 * `startup-tricks`; docs/architecture.md#start-up).
 * Every non-ASCII character in these bundles sits in a string, a regular expression, a template
 * (String.raw ones are regular-expression sources, where `\uXXXX` means the same character) or a
 * comment, where the escape means the same.
 */
async function asciiBundles(): Promise<void> {
  const { readFile, readdir, writeFile } = await import('node:fs/promises');
  for (const folder of ['dist', 'dist/fast']) {
    for (const name of await readdir(folder)) {
      if (!name.endsWith('.cjs')) continue;
      const file = `${folder}/${name}`;
      const text = await readFile(file, 'utf8');
      const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      if (ascii !== text) await writeFile(file, ascii);
    }
  }
}

/**
 * gitleaks' rule table out of the CommonJS bundles: `src/core/secret-table.ts` becomes a module that
 * holds each rule's gate entry (keywords and run bounds, gitleaks' and memdir's own, computed here by
 * the same code the source runs) and reads the table from `dist/gitleaks-rules.json` the first time a text passes the gate.
 * Every output passes the secret filter, and nearly all of it passes no rule's gate: such a process
 * never parses the table (bench `startup`, `hooks`; docs/architecture.md#start-up).
 */
const secretTableFromDist: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'secret-table-from-dist',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]core[\\/]secret-table\.ts$/ }, () => ({
      contents: [
        "import fs from 'node:fs';",
        "import path from 'node:path';",
        'let table;',
        '// dist/ holds the table; the fast paths are bundles in dist/fast/.',
        "export const gitleaksTable = () => (table ??= JSON.parse(fs.readFileSync(path.join(__dirname, path.basename(__dirname) === 'fast' ? '..' : '.', 'gitleaks-rules.json'), 'utf8')));",
        // JSON text: V8 parses it faster than the same data as JavaScript.
        `const GATE = JSON.parse(${JSON.stringify(JSON.stringify(gitleaksGate()))});`,
        'export const gitleaksGate = () => GATE;',
        `const MEMDIR_GATE = JSON.parse(${JSON.stringify(JSON.stringify(memdirGateEntries()))});`,
        'export const precomputedMemdirGate = () => MEMDIR_GATE;',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

async function writeGitleaksTable(): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  await writeFile('dist/gitleaks-rules.json', JSON.stringify(gitleaksTable()));
}

/** bin/memdir.cjs's list of fast paths, read before it loads any bundle. */
async function writeFastPaths(): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  await writeFile('dist/fast-paths.json', `${JSON.stringify(FAST_PATHS)}\n`);
}

export default defineConfig([
  // The CLI: one CommonJS file. Node 20 loads it faster than the same code as ES modules split in
  // chunks (the module loader's work per chunk), and hooks run it on every commit and prompt. yargs and picocolors
  // are bundled; heavy dependencies load only in the commands that need them.
  {
    // Each `src/fast/<command>.ts` is the fast path of a command whose table declares one (see
    // bin/memdir.cjs); bin/memdir.cjs loads these bundles through `code-cache` (a V8 code cache on Node 20).
    entry: {
      cli: 'src/cli.ts',
      'code-cache': 'src/shell/code-cache.ts',
      // The guard hook and its judge, which its fast path loads only for a write that may land in the memory directory.
      'guard-hook': 'src/guard/hook-bundle.ts',
      ...Object.fromEntries(Object.keys(FAST_PATHS).map((name) => [`fast/${name}`, `src/fast/${name}.ts`])),
    },
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    target: 'node20',
    platform: 'node',
    splitting: false,
    // `import.meta.url` as a getter, computed only where read: tsup's shim makes a URL in every
    // module's initialisation, on every hook start.
    shims: false,
    banner: { js: '"use strict";const __importMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };' },
    esbuildOptions(options) {
      options.define = { ...options.define, 'import.meta': '__importMeta' };
    },
    clean: true,
    noExternal: ['yargs', 'picocolors'],
    external,
    // The plugin sees `node:` imports only when tsup does not strip the prefix (and mark them external) first.
    removeNodeProtocol: false,
    esbuildPlugins: [builtinsOnce, secretTableFromDist],
    onSuccess: async () => {
      await asciiBundles();
      await writeFastPaths();
      await writeGitleaksTable();
    },
  },
  // The library API, as ES modules with types, and the internals our scripts and benchmarks use.
  {
    entry: { index: 'src/index.ts', internal: 'src/internal.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    // Type declarations are for library users; the test build (MEMDIR_BUILD_TYPES=0) skips them.
    dts: process.env.MEMDIR_BUILD_TYPES !== '0',
    external: [...external, 'yargs', 'picocolors', 'fast-glob'],
  },
]);
