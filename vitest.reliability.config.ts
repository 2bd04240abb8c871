import { defineConfig } from 'vitest/config';

// The reliability suite: six files, each minutes of child processes, sandboxes and DuckDB files.
// Two files at a time, as the main suite (vitest.config.ts): their assertions are about what the
// processes leave (exact data, sound logs, one line and an exit code) and about the sandbox's own
// sliding-window count, none about how fast a run is, so a second file on the machine changes no
// outcome; the suite's time halves (311 s -> about 160 s, fresh clone, 2 cores). Without cached
// durations vitest starts the biggest files first, which pairs the slow ones well.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    setupFiles: ['test/helpers/state-home-setup.ts'],
  },
});
