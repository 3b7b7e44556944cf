import { defineConfig } from 'tsup';

// Two entries: the CLI (commands split into lazy chunks) and the library API.
// Dependencies are bundled into the CLI so startup resolves few modules; the
// heavy ones (simple-git, @anthropic-ai/sdk) stay external and load on demand.
export default defineConfig({
  entry: { cli: 'src/cli.ts', index: 'src/index.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  sourcemap: false,
  noExternal: ['yargs', 'picocolors', 'gray-matter'],
  external: ['simple-git', '@anthropic-ai/sdk'],
  banner: {
    // yargs and gray-matter are CommonJS inside; give the bundle a require().
    js: "import { createRequire as __memdirCreateRequire } from 'node:module'; const require = __memdirCreateRequire(import.meta.url);",
  },
});
