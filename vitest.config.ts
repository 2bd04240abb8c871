import { defineConfig } from 'vitest/config';

// Integration tests start real sandboxes and DuckDB files; keep them isolated per file.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/reliability/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/helpers/state-home-setup.ts'],
  },
});
