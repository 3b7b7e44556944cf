import { defineConfig } from 'tsup';

// Two entries: the CLI (commands split into lazy chunks) and the library API.
// yargs and picocolors are bundled so startup resolves few modules; the heavy
// dependencies stay external and load only when a command needs them.
export default defineConfig({
  entry: { cli: 'src/cli.ts', index: 'src/index.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  sourcemap: false,
  noExternal: ['yargs', 'picocolors'],
  // Loaded on demand (dynamic import or lazyRequire), so kept out of the startup bundle.
  external: ['simple-git', '@anthropic-ai/sdk', 'gray-matter', 'chrono-node', 'diff'],
  banner: {
    // yargs is CommonJS inside; give the bundle a require().
    js: "import { createRequire as __memdirCreateRequire } from 'node:module'; const require = __memdirCreateRequire(import.meta.url);",
  },
});
