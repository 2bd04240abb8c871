import { defineConfig } from 'vitest/config';
import { reliabilityProjects } from './vitest.reliability.config.js';

// Three projects in one run (`npx vitest run`, what CI runs); `npm test` runs `unit` and `system`,
// `npm run test:reliability` the reliability one (vitest.reliability.config.ts).
// Two files at a time: vitest's default on a 2-core machine is one (CPUs - 1), and most of a file's
// time is spent waiting on its sandboxes, child processes and DuckDB files, so two halve the suite
// (1223 s -> 735 s measured, 133 files). The timeouts catch hangs, not slowness: they allow for a
// file sharing the machine with another.
//
// - unit: the folders below, whose files run against in-process things only (functions, an
//   in-process sandbox on 127.0.0.1, DuckDB files in temp folders, child processes they wait for)
//   and change no process-wide state (process.env, TZ, cwd, fake timers, module mocks, listeners on
//   `process`, a global registry). They share worker processes (isolate: false): a fresh process
//   and module graph per file cost ~0.65 s of CPU each (66 small files: 74 s -> 31 s of CPU).
//   A new file in these folders must keep to that rule (restore in afterEach what it changes), or
//   go in a folder of `system`.
// - system: every other folder: one fresh process per file (real sandboxes, CLIs, redis-server,
//   s3rver, Chromium, tests that set TZ or environment variables for the process).
// - reliability: vitest.reliability.config.ts (budget-concurrency included: see there why it need
//   not run alone).
// Order: vitest queues projects by name (reliability, system, unit), each biggest file first: the
// reliability suite's long files start with the first, and the small unit files fill the end of
// the run, when the last long file leaves a worker free.
const UNIT_FOLDERS = ['api', 'bench', 'cli', 'config', 'core', 'docs', 'land', 'load', 'pipelines', 'plan', 'sandbox', 'static-export'];
const unit = UNIT_FOLDERS.map((folder) => `test/${folder}/**/*.test.ts`);

const shared = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  setupFiles: ['test/helpers/state-home-setup.ts'],
};

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { test: { ...shared, name: 'unit', include: unit, isolate: false } },
      {
        test: {
          ...shared,
          name: 'system',
          include: ['test/**/*.test.ts'],
          exclude: ['test/reliability/**', 'node_modules/**', ...unit],
          // One folder per run for the shared pre-synced warehouses (test/helpers/presynced.ts).
          globalSetup: ['test/helpers/fixtures-setup.ts'],
        },
      },
      ...reliabilityProjects,
    ],
  },
});
