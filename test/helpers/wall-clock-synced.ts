// A warehouse synced from the sandbox over real HTTP with the wall clock, built once per test run and
// copied per test file. For tests that read it as of the real "now" (the report's period ends today,
// the topics' trend counts the last 7 days), which a fixed-clock fixture (presynced.ts) cannot serve.
//
// - Built once per run (built-once.ts): the first file that asks builds it, the others wait and copy.
// - The history follows the wall clock of its build, as a sync in the test itself did; the files
//   using it run within minutes of the build, so "the last 30 days" still holds it.
// - Each caller gets its own copy (warehouse, budget) and publishes its own read snapshot from it:
//   tests that write stay apart.
import { cpSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { defaultReadPath } from '../../src/sync/publish/snapshot.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox } from '../../src/tools/sandbox/index.js';
import { builtOncePerRun } from './built-once.js';
import { publishForReaders } from './publish.js';
import { runFailures } from './run-failures.js';

export interface WallClockSpec {
  /** The API key of the sandbox and the sync. */
  key: string;
  project: string;
  /** Sandbox history: its conversations over its default 30 days, and its seed. */
  conversations: number;
  seed: number;
}

/** A copy of the spec's synced state folder in `destDir` (built first if this run has none yet); its warehouse is `w.duckdb`. */
export async function wallClockSyncedWarehouse(spec: WallClockSpec, destDir: string): Promise<{ dir: string; warehouse: string }> {
  const built = await builtOncePerRun(`wall-${createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 16)}`, (dir) => build(spec, join(dir, 'w.duckdb')));
  const warehouse = join(destDir, 'w.duckdb');
  // The read snapshot names its Parquet parts by absolute path: the copy publishes its own, as the sync's end does.
  const readDir = dirname(defaultReadPath(join(built, 'w.duckdb')));
  cpSync(built, destDir, { recursive: true, filter: (src) => src !== readDir });
  await publishForReaders(warehouse);
  return { dir: destDir, warehouse };
}

/** One full sync of the default pipelines, the whole default history (as `docs-etl sync` with no --since). */
async function build(spec: WallClockSpec, warehouse: string): Promise<void> {
  const sb = await startSandbox(defaultSandboxOptions({ apiKeys: [spec.key], conversations: spec.conversations, seed: spec.seed }));
  try {
    const r = await runSync(
      { clock: { now: () => new Date(), sleep: async () => {} }, logger: silentLogger },
      defaultSyncConfig(warehouse,
        [{ projectId: spec.project, apiKey: spec.key, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(spec.key), backfillFrom: null }],
        { rate: { limit: 10_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, budgetDir: join(warehouse, '..', 'budget') }),
      PIPELINES,
    );
    if (r.exitCode !== 0) throw new Error(`fixture sync failed (exit ${r.exitCode}): ${runFailures(r.runs)}`);
  } finally {
    await sb.close();
  }
}

