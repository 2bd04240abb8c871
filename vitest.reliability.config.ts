import { defineConfig } from 'vitest/config';

// The reliability suite: six files, each up to a minute or two of child processes, sandboxes and
// DuckDB files. Two groups, one after the other:
// - concurrent: the files whose assertions are about what the processes leave (exact data, sound
//   logs and manifests, one line and an exit code), none about pace: two at a time, as the main
//   suite (vitest.config.ts) runs its files; without cached durations vitest starts the biggest first.
// - timing: budget-concurrency counts every sliding window at the sandbox while three processes
//   share a small budget at real latencies: alone on the machine, as before.
// 311 s serial (fresh clone, 2 cores) -> about 190 s: the first group's ~240 s of files in ~120 s.
const shared = {
  testTimeout: 240_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  setupFiles: ['test/helpers/state-home-setup.ts'],
};
const TIMING = ['test/reliability/budget-concurrency.test.ts'];

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: { ...shared, name: 'reliability', include: ['test/reliability/**/*.test.ts'], exclude: TIMING, sequence: { groupOrder: 0 } },
      },
      {
        test: { ...shared, name: 'reliability-timing', include: TIMING, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
