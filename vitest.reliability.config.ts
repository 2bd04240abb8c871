import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';

// The reliability suite: six files, each up to a minute or two of child processes, sandboxes and
// DuckDB files. Two groups, one after the other:
// - reliability: the files whose assertions are about what the processes leave (exact data, sound
//   logs and manifests, one line and an exit code), none about pace: two at a time, as the main
//   suite runs its files; without cached durations vitest starts the biggest first.
// - reliability-timing: budget-concurrency counts every sliding window at the sandbox while three
//   processes share a small budget at real latencies: alone on the machine, after everything else.
// `npm run test:reliability` runs this file; vitest.config.ts runs the same two projects in the main
// suite's run (CI: one `vitest run`, the first group's files filling the main suite's workers).
const shared = {
  testTimeout: 240_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  setupFiles: ['test/helpers/state-home-setup.ts'],
};
const TIMING = ['test/reliability/budget-concurrency.test.ts'];

export const reliabilityProjects: TestProjectInlineConfiguration[] = [
  {
    test: { ...shared, name: 'reliability', include: ['test/reliability/**/*.test.ts'], exclude: TIMING, sequence: { groupOrder: 0 } },
  },
  {
    test: { ...shared, name: 'reliability-timing', include: TIMING, fileParallelism: false, sequence: { groupOrder: 1 } },
  },
];

export default defineConfig({
  test: { maxWorkers: 2, projects: reliabilityProjects },
});
