import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['test/helpers/state-home-setup.ts'],
    fileParallelism: false,
  },
});
