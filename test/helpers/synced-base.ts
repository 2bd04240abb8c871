// A file's "synced warehouse" scene, synced once in-process and copied per test: the tests that need
// only a warehouse after a first sync (to query, reset, hold or re-sync) each get their own copy, so
// they stay independent of one another's order, without a CLI sync (a Node start and a full first
// sync) per test. The CLI's own sync is covered by the tests that are about it.
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { publishRead } from '../../src/sync/publish/read-surface.js';
import { DEFAULT_READ_GRACE_MS, DEFAULT_READ_SURFACE, type ReadSurface } from '../../src/sync/publish/read-surface-defaults.js';
import { defaultReadPath } from '../../src/sync/publish/snapshot.js';
import { SURFACE_LAKE_TABLES } from '../../src/sync/run/surface-lake-tables.js';
import { runSync } from '../../src/sync/run/sync.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runFailures } from './run-failures.js';

export interface BaseSpec {
  /** The sandbox's URL and key. */
  url: string;
  key: string;
  projects: string[];
}

/**
 * A first sync of `projects` into `<dir>/w.duckdb`, as `docs-etl sync` with the tests' environment runs
 * it (the assistant stream, all history, no kept pages); returns the warehouse.
 */
export async function syncBase(spec: BaseSpec, dir: string): Promise<string> {
  const warehouse = join(dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse, spec.projects.map((projectId) => ({
    projectId, apiKey: spec.key, keySource: 'DOCS_API_KEY', baseUrl: spec.url, organization: keyFingerprint(spec.key), backfillFrom: null,
  })), {
    rate: { limit: 10_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, budgetDir: join(dir, 'budget'),
    pipelines: ['assistant_conversations'],
    // Its read snapshot is not copied (copyBase publishes each copy's own): the cheapest surface.
    readSurface: 'copy',
  });
  const r = await runSync({ clock: { now: () => new Date(), sleep: async () => {} }, logger: silentLogger, retry: { attempts: 5, baseMs: 1, maxMs: 5 } }, cfg, PIPELINES);
  if (r.exitCode !== 0) throw new Error(`the base sync exited ${r.exitCode}: ${runFailures(r.runs)}`);
  return warehouse;
}

/**
 * A copy of the base's state folder (warehouse, landing, budget) in `destDir`, with its own read
 * snapshot at the default read path, published as a sync's end does (`surface`: default the
 * default surface, the catalog; `none`: no snapshot); returns its warehouse.
 */
export async function copyBase(baseWarehouse: string, destDir: string, opts: { surface?: ReadSurface | 'none' } = {}): Promise<string> {
  const readDir = dirname(defaultReadPath(baseWarehouse));
  cpSync(dirname(baseWarehouse), destDir, { recursive: true, filter: (src) => src !== readDir });
  const warehouse = join(destDir, 'w.duckdb');
  const surface = opts.surface ?? DEFAULT_READ_SURFACE;
  if (surface === 'none') return warehouse;
  const wh = await openWarehouse(warehouse);
  try {
    await publishRead(wh.conn, warehouse, { readPath: defaultReadPath(warehouse), readSurface: surface, readGraceMs: DEFAULT_READ_GRACE_MS, lakeTables: SURFACE_LAKE_TABLES }, new Date(), true);
  } finally {
    wh.close();
  }
  return warehouse;
}
