// Every user table of the warehouse reaches the lake: a sync of every pipeline (threads too) and a
// static export against the sandbox over real HTTP into a real DuckDB file, then the lake exported
// to a local folder and to an S3-compatible server (s3rver on 127.0.0.1). For each table the lake's
// files (read back by DuckDB, local and downloaded) hold as many rows as the warehouse, the
// manifest names each file once and only files that exist, and an export with no change uploads
// nothing.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { silentLogger } from '../../src/core/logger.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import type { Manifest } from '../../src/outputs/lake/manifest.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { EVERY_TABLE_FIXTURE } from '../helpers/every-table-fixture.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { presyncedWarehouse } from '../helpers/presynced.js';
import { keyIn, startS3, type TestS3 } from '../helpers/s3.js';
import { tempDir } from '../helpers/tmp.js';
import { readFileSync } from 'node:fs';

/** The tool's own state, not user data: never in the lake (checkpoints, parked windows, alert states and
 * response counts, the gap-topic step's incremental state). */
const INTERNAL = new Set(['schema_migrations', 'sync_state', 'parked_windows', 'history_probes', 'alert_state', 'api_responses', 'run_deferrals', 'gap_topic_questions', 'gap_topic_terms', 'gap_topic_df', 'gap_topic_index']);

const clock = new FakeClock(EVERY_TABLE_FIXTURE.now);
let s3: TestS3;
let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
/** Warehouse row count per user table. */
const counts = new Map<string, number>();

beforeAll(async () => {
  tmp = tempDir('docs-etl-lake-all-');
  // Every pipeline synced twice and a static export: the shared pre-synced warehouse, copied.
  ({ warehouse } = await presyncedWarehouse(EVERY_TABLE_FIXTURE, join(tmp.dir, 'state')));
  const wh = await openWarehouse(warehouse);
  try {
    const tables = (await wh.conn.runAndReadAll(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND table_type = 'BASE TABLE'`))
      .getRows().map((row) => String(row[0])).filter((t) => !INTERNAL.has(t));
    for (const t of tables) counts.set(t, Number((await wh.conn.runAndReadAll(`SELECT count(*) FROM "${t}"`)).getRows()[0]![0]));
  } finally {
    wh.close();
  }
  s3 = await startS3(join(tmp.dir, 's3'));
}, 120_000);

afterAll(async () => {
  await s3?.close();
  tmp?.cleanup();
});

async function exportTo(outDir: string, env: NodeJS.ProcessEnv = {}) {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    return await exportLake({ conn: wh.conn, logger: silentLogger, clock, tables: LAKE_TABLES, env }, { outDir });
  } finally {
    wh.close();
  }
}

/** Rows per table of the files a manifest names, read by DuckDB from local copies. */
async function lakeCounts(manifest: Manifest, fileOf: (key: string) => string): Promise<Map<string, number>> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const out = new Map<string, number>();
  for (const e of manifest.files) {
    const n = Number((await conn.runAndReadAll('SELECT count(*) FROM read_parquet($f)', { f: fileOf(e.key) })).getRows()[0]![0]);
    expect(n, e.key).toBe(e.rows);
    out.set(e.table, (out.get(e.table) ?? 0) + n);
  }
  conn.closeSync();
  return out;
}

function expectManifestSane(m: Manifest, existing: ReadonlySet<string>) {
  const keys = m.files.map((e) => e.key);
  expect(new Set(keys).size, 'no file listed twice').toBe(keys.length);
  for (const k of keys) expect(existing.has(k), `${k} exists`).toBe(true);
  const parts = m.files.map((e) => JSON.stringify([e.table, e.partition]));
  expect(new Set(parts).size, 'one file per partition').toBe(parts.length);
}

describe('every user table in the lake', () => {
  it('the warehouse has data in every user table (else the comparison proves little)', () => {
    expect([...counts.keys()].sort()).toEqual(LAKE_TABLES.map((t) => t.name).sort());
    for (const [t, n] of counts) expect(n, t).toBeGreaterThan(0);
  });

  it('a local lake: same row count per table as the warehouse, hive-partitioned as declared', async () => {
    const lake = join(tmp.dir, 'lake');
    const s = await exportTo(lake);
    expect(s.files.written).toBeGreaterThan(counts.size);
    const manifest = JSON.parse(readFileSync(join(lake, '_docs_etl', 'manifest.json'), 'utf8')) as Manifest;
    const existing = new Set(manifest.files.map((e) => e.key).filter((k) => { try { readFileSync(keyIn(lake, k)); return true; } catch { return false; } }));
    expectManifestSane(manifest, existing);
    expect(Object.fromEntries(await lakeCounts(manifest, (k) => keyIn(lake, k)))).toEqual(Object.fromEntries(counts));
    // Readers glob the documented layout with hive partitioning.
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    for (const t of LAKE_TABLES) {
      const glob = `${lake}/${t.name}/**/*.parquet`;
      const n = Number((await conn.runAndReadAll(`SELECT count(*) FROM read_parquet($g, hive_partitioning = ${t.layout.by === 'none' ? 'false' : 'true'})`, { g: glob })).getRows()[0]![0]);
      expect(n, t.name).toBe(counts.get(t.name));
    }
    const byDay = await conn.runAndReadAll(`SELECT count(DISTINCT date) FROM read_parquet($g, hive_partitioning = true) WHERE project_id = 'alpha'`, { g: `${lake}/page_views_daily/**/*.parquet` });
    expect(Number(byDay.getRows()[0]![0])).toBeGreaterThan(1);
    conn.closeSync();
  });

  it('an S3 lake: same row count per table; the manifest names every object once; no change uploads nothing', async () => {
    const url = `s3://${s3.bucket}/team/lake`;
    const s = await exportTo(url, s3.env);
    expect(s.outDir).toBe(url);
    const objects = await s3.list('team/lake/');
    const manifest = JSON.parse(await s3.getText('team/lake/_docs_etl/manifest.json')) as Manifest;
    const existing = new Set([...objects.keys()].map((k) => k.slice('team/lake/'.length)));
    expectManifestSane(manifest, existing);
    const data = [...existing].filter((k) => k.endsWith('.parquet'));
    expect(data.sort(), 'no object that the manifest does not name').toEqual(manifest.files.map((e) => e.key).sort());
    const local = join(tmp.dir, 'download');
    for (const e of manifest.files) {
      mkdirSync(join(local, e.key, '..'), { recursive: true });
      await s3.download(`team/lake/${e.key}`, keyIn(local, e.key));
      expect(objects.get(`team/lake/${e.key}`)!.bytes, e.key).toBe(e.bytes);
    }
    expect(Object.fromEntries(await lakeCounts(manifest, (k) => keyIn(local, k)))).toEqual(Object.fromEntries(counts));
    // Same layout as the local lake, keys aside.
    for (const e of manifest.files) {
      expect(e.key).toMatch(new RegExp(`^${e.table}/${e.partition.project_id !== undefined ? 'project_id=[^/]+/' : ''}${e.partition.date ? `date=${e.partition.date}/` : ''}part-[a-z0-9-]+\\.parquet$`));
    }

    const again = await exportTo(url, s3.env);
    expect(again.files).toEqual({ written: 0, removed: 0, tempRemoved: 0 });
    expect(await s3.list('team/lake/'), 'not one object added, replaced or removed').toEqual(objects);
  });
});
