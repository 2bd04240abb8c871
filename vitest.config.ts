import { defineConfig } from 'vitest/config';

// Integration tests start real sandboxes and DuckDB files; keep them isolated per file.
// Two files at a time: vitest's default on a 2-core machine is one (CPUs - 1), and most of a file's
// time is spent waiting on its sandboxes, child processes and DuckDB files, so two halve the suite
// (1223 s -> 735 s measured, 133 files) and keep CI under its 25 minutes. The timeouts catch hangs,
// not slowness: they allow for a file sharing the machine with another.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/reliability/**', 'node_modules/**'],
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['test/helpers/state-home-setup.ts'],
    // One folder per run for the shared pre-synced warehouses (test/helpers/presynced.ts).
    globalSetup: ['test/helpers/fixtures-setup.ts'],
  },
});
