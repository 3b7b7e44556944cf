import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/build.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 30_000, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // The built CLI in temp directories: each test spawns processes.
        test: { name: 'cli', include: ['test/cli/**/*.test.ts'], testTimeout: 30_000, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // Hostile conditions: concurrency, kill -9, bad encodings, broken pipes, hooks that must return.
        test: { name: 'reliability', include: ['test/reliability/**/*.test.ts'], testTimeout: 120_000, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // Real Claude Code processes: few at a time on a 2-core machine.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
