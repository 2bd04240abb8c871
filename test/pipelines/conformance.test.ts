// Every declared pipeline is complete (as faros-ai's connectors test every stream against one set of
// rules): its endpoint is in the published OpenAPI contract and served by the sandbox over real
// HTTP, its stage SQL produces its key and time columns, each of its tables exists in a migrated
// warehouse (declared columns: with those columns, and its generated merge runs), is exported to
// the lake and documented in docs/tables.md, and the report knows its label. A pipeline added
// without one of these fails here, named.
import { readFileSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { renderCoverage } from '../../src/outputs/report/render-coverage.js';
import type { ReportData } from '../../src/outputs/report/report-data.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { sqlFile } from '../../src/warehouse/sql-files.js';
import { createDeclaredTables } from '../../src/sync/pipeline/create-declared-tables.js';
import { columnsOf, createTableSql } from '../../src/sync/pipeline/declared-table.js';
import type { PipelineDefinition } from '../../src/sync/pipeline/definition.js';
import { duckdbType } from '../../src/sync/pipeline/json-structure.js';
import { lakeSelect } from '../../src/sync/pipeline/lake-table.js';
import { replaceDaySql } from '../../src/sync/pipeline/replace-day-sql.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { httpCall } from '../helpers/http.js';
import { openApiProblems } from '../helpers/openapi.js';

const KEY = 'mint_conformance_key_01';
const NOW = Date.parse('2026-03-11T15:30:00Z');
const DAY = 86_400_000;
const ALL = PIPELINES as readonly PipelineDefinition[];
const TABLES_DOC = readFileSync(new URL('../../docs/tables.md', import.meta.url), 'utf8');

let sb: Sandbox;
let wh: Warehouse;

beforeAll(async () => {
  sb = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], projects: ['alpha'], conversations: 40, historyDays: 3, seed: 38, clock: new FakeClock(NOW, { sleepAdvances: false }),
    site: { pages: 30, feedbackPerDay: 20, searchesPerDay: 50, viewsPerDay: 200 },
  }));
  wh = await openWarehouse(':memory:');
  await createDeclaredTables(wh.conn, ALL);
}, 60_000);

afterAll(async () => {
  await sb?.close();
  wh?.close();
});

/** The request a run sends for one window (a whole day before NOW), or for a key. */
function requestPath(p: PipelineDefinition): string {
  const from = Math.floor(NOW / DAY) * DAY - DAY;
  const q = new URLSearchParams(p.keys ? {} : { dateFrom: new Date(from).toISOString(), dateTo: new Date(from + DAY).toISOString() });
  if (p.paging.style !== 'single') q.set('limit', String(p.paging.limit));
  const path = p.endpoint.replace('{projectId}', 'alpha').replace('{key}', '01J0000000000000000000000Z');
  return q.size ? `${path}?${q}` : path;
}

const columnsOfRelation = async (conn: DuckDBConnection, name: string) =>
  (await conn.runAndReadAll(`DESCRIBE ${name}`)).getRowObjectsJS().map((r) => ({ name: String(r.column_name), type: String(r.column_type), nullable: r.null === 'YES' }));

/** The views a stage SQL reads (docs/pipelines.md), typed as a batch of this pipeline's pages, empty. */
async function emptyBatch(conn: DuckDBConnection, p: PipelineDefinition): Promise<void> {
  const meta = `NULL::VARCHAR AS project_id, NULL::VARCHAR AS run_id, NULL::VARCHAR AS window_id, NULL::TIMESTAMPTZ AS window_from,
    NULL::TIMESTAMPTZ AS window_to, NULL::VARCHAR AS window_key, NULL::BOOLEAN AS truncated, NULL::UBIGINT AS seq`;
  await conn.run(`CREATE OR REPLACE TEMP VIEW landed AS SELECT ${meta}, NULL::${duckdbType(p.record)} AS r, NULL::JSON AS extra, NULL::BIGINT AS ord WHERE false`);
  await conn.run(`CREATE OR REPLACE TEMP VIEW landed_pages AS SELECT ${meta}${p.page ? `, NULL::${duckdbType(p.page)} AS page` : ''} WHERE false`);
  await conn.run(`CREATE OR REPLACE TEMP VIEW landed_invalid AS SELECT NULL::VARCHAR AS project_id, NULL::VARCHAR AS run_id,
    NULL::STRUCT(i INTEGER, error VARCHAR, raw JSON) AS q WHERE false`);
}

describe.each(ALL.map((p) => [p.name, p] as const))('pipeline %s', (_name, p) => {
  it('its endpoint is in the OpenAPI contract and served by the sandbox, as declared', async () => {
    const path = requestPath(p);
    const reply = await httpCall(sb.url, path, { key: KEY });
    // A keyed endpoint asked for a key it does not know answers its own 404, not "no such endpoint".
    expect(reply.status === 200 || (p.keys !== undefined && reply.status === 404 && !/no such/i.test(reply.text)), `${path}: ${reply.status} ${reply.text.slice(0, 200)}`).toBe(true);
    expect(openApiProblems({ method: 'GET', path, status: reply.status, body: reply.json })).toEqual([]);
    if (reply.status === 200) {
      const records = p.recordsField === null ? [reply.json] : (reply.json as Record<string, unknown>)[p.recordsField];
      expect(Array.isArray(records), `${p.recordsField ?? '(body)'} holds the records`).toBe(true);
      for (const r of (records as unknown[]).slice(0, 5)) expect(p.record.safeParse(r).success).toBe(true);
    }
  });

  it('its stage SQL produces its key, its time column and what its tie-break and merge read', async () => {
    await emptyBatch(wh.conn, p);
    await wh.conn.run(sqlFile(p.load.stage));
    const staged = new Set((await columnsOfRelation(wh.conn, 'stage')).map((c) => c.name));
    expect([...p.key, p.time.column, 'project_id', 'window_id'].filter((c) => !staged.has(c))).toEqual([]);
    if (typeof p.tieBreak === 'string') {
      const all = new Set((await columnsOfRelation(wh.conn, 'stage_all')).map((c) => c.name));
      expect([...p.key, 'seq', 'ord'].filter((c) => !all.has(c))).toEqual([]);
    }
    expect((await columnsOfRelation(wh.conn, 'stage_rejects')).map((c) => c.name)).toEqual(['project_id', 'run_id', 'error', 'raw']);
  });

  it('each table exists in a migrated warehouse, with its declared columns, and its generated merge runs', async () => {
    const tables = new Set((await wh.conn.runAndReadAll('SELECT table_name FROM duckdb_tables()')).getRowObjectsJS().map((r) => String(r.table_name)));
    expect(p.tables.filter((t) => !tables.has(t))).toEqual([]);
    for (const t of p.declaredTables) {
      // The declared columns as DuckDB spells them (TIMESTAMPTZ is TIMESTAMP WITH TIME ZONE).
      await wh.conn.run(createTableSql({ ...t, name: 'declared_columns' }));
      const declared = await columnsOfRelation(wh.conn, 'declared_columns');
      await wh.conn.run('DROP TABLE declared_columns');
      expect(declared.map((c) => c.name)).toEqual(columnsOf(t).map((c) => c.name));
      expect(await columnsOfRelation(wh.conn, t.name), t.name).toEqual(declared);
    }
    if (!Array.isArray(p.load.merge)) {
      await emptyBatch(wh.conn, p);
      await wh.conn.run(sqlFile(p.load.stage));
      await wh.conn.run('BEGIN TRANSACTION');
      try {
        for (const sql of replaceDaySql(p, p.load.merge as Exclude<typeof p.load.merge, readonly string[]>)) {
          await wh.conn.run(sql, sql.includes('$now') ? { now: new Date(NOW).toISOString() } : undefined);
        }
        expect((await columnsOfRelation(wh.conn, 'merge_stats')).map((c) => c.name)).toEqual(['window_id', 'rows', 'new_rows', 'changed_rows']);
      } finally {
        await wh.conn.run('ROLLBACK');
      }
    }
  });

  it('each table is exported to the lake (a declared one with its declared columns) and documented in docs/tables.md', async () => {
    const lake = new Set(LAKE_TABLES.map((t) => t.name));
    expect(p.tables.filter((t) => !lake.has(t)), 'in src/cli/lake-tables.ts').toEqual([]);
    expect(p.tables.filter((t) => !TABLES_DOC.includes(`\`${t}\``)), 'in docs/tables.md').toEqual([]);
    for (const t of p.declaredTables) {
      const select = lakeSelect(p.lake.find((l) => l.name === t.name)!);
      expect((await columnsOfRelation(wh.conn, `(${select})`)).map((c) => c.name), t.name).toEqual(columnsOf(t).map((c) => c.name));
    }
  });

  it('the report and status know its label', () => {
    expect(p.label.trim()).not.toBe('');
    expect(ALL.filter((o) => o.label === p.label).map((o) => o.name), 'labels are distinct').toEqual([p.name]);
    if (!p.reportCoverage) return;
    const data = { coverage: [{ pipeline: p.name, loaded: 3, prevLoaded: 3 }] } as unknown as ReportData;
    const period = { timeZone: 'UTC', days: 7, from: '2026-03-05', to: '2026-03-11', prevFrom: '2026-02-26', prevTo: '2026-03-04', dayList: [] };
    expect(String(renderCoverage(data, period))).toContain(`data-source="${p.name}"`);
    expect(String(renderCoverage(data, period))).toContain(`${p.label}: <strong>`);
  });
});
