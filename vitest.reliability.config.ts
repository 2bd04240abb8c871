import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';

// The reliability suite: six files, each up to a minute or two of child processes, sandboxes and
// DuckDB files, two at a time, as the main suite runs its files; without cached durations vitest
// starts the biggest first. Their assertions are about what the processes leave (exact data, sound
// logs and manifests, one line and an exit code, requests counted per window at the sandbox).
// budget-concurrency used to run alone at the end (its own project): it need not, since a budget
// slot counts until its response's end plus the window and the sandbox counts arrivals (always
// before that end), so a loaded machine only slows its processes down, never puts more requests in
// a window; its other claims (exact data, no page fetched twice) do not depend on pace either.
// `npm run test:reliability` runs this file; vitest.config.ts runs the same project in the main
// suite's run (CI: one `vitest run`, its files filling the main suite's workers).
const shared = {
  testTimeout: 240_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  setupFiles: ['test/helpers/state-home-setup.ts'],
};

export const reliabilityProjects: TestProjectInlineConfiguration[] = [
  { test: { ...shared, name: 'reliability', include: ['test/reliability/**/*.test.ts'] } },
];

export default defineConfig({
  test: { maxWorkers: 2, projects: reliabilityProjects },
});
