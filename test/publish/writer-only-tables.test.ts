// The writer's own state tables (the topic step's per-question state, the alert state) are not in
// the read surface: a publish neither signs nor writes them, so a run that changed only them writes
// no file but the catalog. The tables readers use stay. A real migrated warehouse, real publishes,
// the catalog opened by a separate read-only DuckDB instance.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { publishCatalog } from '../../src/sync/publish/read-surface.js';
import { readSurfaceDir } from '../../src/sync/publish/surface-files.js';
import { WRITER_ONLY_TABLES } from '../../src/sync/publish/writer-only-tables.js';
import { tempDir } from '../helpers/tmp.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';

let tmp: ReturnType<typeof tempDir>;
let wh: Warehouse;

/** Rows in every writer-only table (n of them, keys from `at`), and a readable gap topic. */
async function writeState(at: number, n: number): Promise<void> {
  await wh.conn.run(`INSERT INTO gap_topic_questions SELECT 'alpha', (i + $at)::UBIGINT, 't1', 'en', 0.5, TIMESTAMPTZ '2026-11-05 00:00:00+00' FROM range($n) t(i)`, { at, n });
  await wh.conn.run(`INSERT INTO gap_topic_terms SELECT 'alpha', 't1', 'en', 'w:term' || (i + $at), 0.1 FROM range($n) t(i)`, { at, n });
  await wh.conn.run(`INSERT INTO gap_topic_df SELECT 'alpha', 'en', 'w:term' || (i + $at), 1 FROM range($n) t(i)`, { at, n });
  await wh.conn.run(`INSERT INTO gap_topic_index VALUES ('alpha', 'key' || $at, 'snapshot'::BLOB, TIMESTAMPTZ '2026-11-05 00:00:00+00')`, { at });
  await wh.conn.run(`INSERT INTO alert_state VALUES ('alpha', 'assistant_conversations', 'stale' || $at, TIMESTAMPTZ '2026-11-05 00:00:00+00', 'over its SLA')`, { at });
}

beforeAll(async () => {
  tmp = tempDir('docs-etl-writer-only-');
  wh = await openWarehouse(join(tmp.dir, 'w.duckdb'), { memoryLimit: '128MB', threads: 2 });
  await migrate(wh.conn);
  await wh.conn.run(`
    INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status, first_seen_at, last_seen_at, updated_at)
    SELECT 'alpha', 'c' || i, TIMESTAMPTZ '2026-11-04 00:00:00+00' + to_microseconds(i * 1000000), 'q' || i, 'a', 'answer', 'unanswered',
           TIMESTAMPTZ '2026-11-05 00:00:00+00', TIMESTAMPTZ '2026-11-05 00:00:00+00', TIMESTAMPTZ '2026-11-05 00:00:00+00'
    FROM range(100) t(i)`);
  await wh.conn.run("INSERT INTO projects (project_id, updated_at) VALUES ('alpha', TIMESTAMPTZ '2026-11-05 00:00:00+00')");
  await writeState(0, 5000);
}, 60_000);
afterAll(() => {
  wh?.close();
  tmp?.cleanup();
});

async function catalogNames(path: string): Promise<string[]> {
  const inst = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  try {
    const sql = "SELECT table_name AS n FROM duckdb_tables() WHERE schema_name = 'main' UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'";
    return (await conn.runAndReadAll(sql)).getRowObjectsJS().map((r) => String(r.n));
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

it('the writer-only tables are not in the read catalog, and a publish after only they changed writes no file but the catalog', async () => {
  expect([...WRITER_ONLY_TABLES].sort()).toEqual(['alert_state', 'gap_topic_df', 'gap_topic_index', 'gap_topic_questions', 'gap_topic_terms']);
  const readPath = join(tmp.dir, 'read', 'w.duckdb');
  const settings = { readPath, readSurface: 'catalog' as const, readGraceMs: 86_400_000, lakeTables: LAKE_TABLES };
  await publishCatalog(wh.conn, settings, new Date('2026-11-05T12:00:00Z'), true);
  const names = await catalogNames(readPath);
  for (const t of WRITER_ONLY_TABLES) {
    expect(names, t).not.toContain(t);
    expect(existsSync(join(readSurfaceDir(readPath), '_tables', t)), t).toBe(false);
  }
  // What readers use is there: the topics, the projects, the turns and the views over them.
  for (const t of ['conversations', 'projects', 'gap_topics', 'gap_topic_members', 'gap_topic_runs', 'sync_runs', 'parked_windows', 'api_responses']) expect(names).toContain(t);

  await writeState(10_000, 5000);
  const steady = await publishCatalog(wh.conn, settings, new Date('2026-11-05T13:00:00Z'));
  expect(steady.files?.written).toBe(0);
  expect(steady.bytes).toBe(statSync(readPath).size);
}, 60_000);
