// Every lake table is an Apache Iceberg v2 table that an implementation we did not write (icebird,
// over HTTP on 127.0.0.1) reads back equal to the warehouse: a sync of every pipeline (threads too)
// and a static export against the sandbox, the lake exported to a local folder (served by a static
// HTTP server) and to s3rver. Then: the metadata validates field by field against the spec's table
// metadata (test/fixtures/iceberg), every data file carries the schema's field ids, the manifests
// carry bounds for the partition and time columns, a second export after new data adds one snapshot
// while the previous one still reads the old rows, and an export with no change writes nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { icebergManifests } from 'icebird';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { silentLogger } from '../../src/core/logger.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import type { TableMetadata } from '../../src/outputs/lake/iceberg/table-metadata.js';
import { lakeSelect } from '../../src/sync/pipeline/lake-table.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { EVERY_TABLE_FIXTURE } from '../helpers/every-table-fixture.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { localLakeBase, readIcebergMetadata, readIcebergTable, routeFetch, serveFolder, type IcebergRow, type StaticServer } from '../helpers/iceberg-reader.js';
import { presyncedWarehouse } from '../helpers/presynced.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { tempDir } from '../helpers/tmp.js';
import { fileStamps } from './lake-fixture.js';

const clock = new FakeClock(EVERY_TABLE_FIXTURE.now);
let s3: TestS3;
let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
let lake: string;
let http: StaticServer;
let restoreFetch: () => void;
/** Per table: every row of its lake SELECT, normalised (see norm). */
const expected = new Map<string, string[]>();

/** One value as both readers can agree on: instants to ms ISO, integers as text, lists as JSON. */
function norm(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return JSON.stringify(v.map(norm));
  if (typeof v === 'object' && 'items' in (v as object)) return JSON.stringify((v as { items: unknown[] }).items.map(norm));
  return v;
}
const rowKey = (r: IcebergRow, cols: readonly string[]) => JSON.stringify(cols.map((c) => norm(r[c])));
const selectOf = (t: (typeof LAKE_TABLES)[number]) => lakeSelect(t);

async function warehouseRows(): Promise<Map<string, { cols: string[]; rows: string[] }>> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const out = new Map<string, { cols: string[]; rows: string[] }>();
    for (const t of LAKE_TABLES) {
      const res = await wh.conn.runAndReadAll(`SELECT * FROM (${selectOf(t)})`);
      const cols = res.columnNames();
      out.set(t.name, { cols, rows: res.getRowObjectsJS().map((r) => rowKey(r, cols)).sort() });
    }
    return out;
  } finally {
    wh.close();
  }
}

async function exportTo(outDir: string, env: NodeJS.ProcessEnv = {}) {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    return await exportLake({ conn: wh.conn, logger: silentLogger, clock, tables: LAKE_TABLES, env }, { outDir });
  } finally {
    wh.close();
  }
}

const metadataOf = (name: string): TableMetadata => {
  const hint = readFileSync(join(lake, name, 'metadata', 'version-hint.text'), 'utf8').trim();
  return JSON.parse(readFileSync(join(lake, name, 'metadata', `v${hint}.metadata.json`), 'utf8')) as TableMetadata;
};

beforeAll(async () => {
  tmp = tempDir('docs-etl-iceberg-');
  lake = join(tmp.dir, 'lake');
  // Every pipeline synced twice and a static export: the shared pre-synced warehouse, copied.
  ({ warehouse } = await presyncedWarehouse(EVERY_TABLE_FIXTURE, join(tmp.dir, 'state')));
  for (const [t, v] of await warehouseRows()) expected.set(t, v.rows);
  s3 = await startS3(join(tmp.dir, 's3'));
  http = await serveFolder(lake);
  restoreFetch = routeFetch([
    { from: localLakeBase(lake), to: `${http.url}/` },
    { from: `${http.url}/`, to: `${http.url}/` },
    { from: `https://${s3.bucket}.s3.amazonaws.com/`, to: `${s3.endpoint}/${s3.bucket}/`, rawKeys: true },
  ]);
}, 180_000);

afterAll(async () => {
  restoreFetch?.();
  await http?.close();
  await s3?.close();
  tmp?.cleanup();
});

async function expectEveryTableReads(tableUrl: (name: string) => string) {
  for (const t of LAKE_TABLES) {
    const want = expected.get(t.name)!;
    expect(want.length, `${t.name}: the warehouse has rows (else the comparison proves little)`).toBeGreaterThan(0);
    const rows = await readIcebergTable(tableUrl(t.name));
    const cols = JSON.parse(JSON.stringify(metadataOf(t.name).schemas.at(-1)!.fields.map((f) => f.name))) as string[];
    expect(rows.length, t.name).toBe(want.length);
    expect(rows.map((r) => rowKey(r, cols)).sort(), t.name).toEqual(want);
  }
}

describe('the lake as Iceberg tables', () => {
  it('a local lake: icebird reads every table over HTTP, rows equal to the warehouse', async () => {
    const s = await exportTo(lake);
    expect(Object.keys(s.iceberg!.snapshots).sort()).toEqual(LAKE_TABLES.map((t) => t.name).sort());
    await expectEveryTableReads((name) => `${http.url}/${name}`);
  });

  it('every metadata file validates against the spec\'s table metadata, ids and logs consistent', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(new URL('../fixtures/iceberg/table-metadata-v2.schema.json', import.meta.url), 'utf8')) as object);
    for (const t of LAKE_TABLES) {
      const m = metadataOf(t.name);
      expect(validate(m), `${t.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const schema = m.schemas.find((x) => x['schema-id'] === m['current-schema-id'])!;
      const ids = schema.fields.flatMap((f) => (typeof f.type === 'string' ? [f.id] : [f.id, f.type['element-id']]));
      expect(new Set(ids).size, 'field ids unique').toBe(ids.length);
      expect(Math.max(...ids)).toBe(m['last-column-id']);
      const spec = m['partition-specs'].find((x) => x['spec-id'] === m['default-spec-id'])!;
      expect(spec.fields.map((f) => [f.name, f.transform]), t.name).toEqual(
        t.layout.by === 'none' ? [] : [['project_id', 'identity'], ...(t.layout.by === 'project-day' ? [['date', t.layout.type === 'instant' ? 'day' : 'identity']] : [])],
      );
      for (const f of spec.fields) expect(ids).toContain(f['source-id']);
      expect(m['sort-orders'].some((o) => o['order-id'] === m['default-sort-order-id'])).toBe(true);
      const current = m.snapshots.find((x) => x['snapshot-id'] === m['current-snapshot-id'])!;
      expect(current.summary['total-records']).toBe(String(expected.get(t.name)!.length));
      expect(m.refs.main).toEqual({ 'snapshot-id': m['current-snapshot-id'], type: 'branch' });
      expect(m['snapshot-log'].at(-1)!['snapshot-id']).toBe(m['current-snapshot-id']);
      expect(m['last-sequence-number']).toBe(Math.max(...m.snapshots.map((x) => x['sequence-number'])));
      expect(m.location).toBe(`${localLakeBase(lake)}${t.name}`);
    }
  });

  it('every data file carries the field ids; manifests carry bounds for the partition and time columns', async () => {
    for (const t of LAKE_TABLES) {
      const m = metadataOf(t.name);
      const schema = m.schemas.find((x) => x['schema-id'] === m['current-schema-id'])!;
      const idOf = new Map(schema.fields.map((f) => [f.name, f.id]));
      const manifests = await icebergManifests(m as never);
      const entries = manifests.flatMap((x) => x.entries).filter((e) => e.status !== 2);
      expect(entries.length, t.name).toBeGreaterThan(0);
      for (const e of entries) {
        const meta = await parquetMetadataAsync(await asyncBufferFromFile(fileURLToPath(e.data_file.file_path)));
        const top = meta.schema.slice(1).filter((el) => idOf.has(el.name));
        expect(top.map((el) => [el.name, el.field_id]), e.data_file.file_path).toEqual(schema.fields.map((f) => [f.name, f.id]));
        for (const f of schema.fields) {
          if (typeof f.type !== 'string') expect(meta.schema.find((el) => el.name === 'element' && el.field_id === (f.type as { 'element-id': number })['element-id']), f.name).toBeDefined();
        }
        const bounded = [
          ...(t.layout.by !== 'none' ? ['project_id'] : []),
          ...(t.layout.by === 'project-day' ? [t.layout.column] : []),
        ];
        const lower = new Map((e.data_file.lower_bounds as unknown as { key: number; value: Uint8Array }[] | undefined ?? []).map((kv) => [kv.key, kv.value]));
        const upper = new Map((e.data_file.upper_bounds as unknown as { key: number; value: Uint8Array }[] | undefined ?? []).map((kv) => [kv.key, kv.value]));
        for (const c of bounded) {
          expect(lower.has(idOf.get(c)!), `${t.name}.${c} lower bound`).toBe(true);
          expect(upper.has(idOf.get(c)!), `${t.name}.${c} upper bound`).toBe(true);
        }
        if (t.layout.by !== 'none' && e.data_file.record_count > 0n) {
          expect(Buffer.from(lower.get(idOf.get('project_id')!)!).toString('utf8')).toBe((e.data_file.partition as Record<string, unknown>).project_id);
        }
      }
    }
  });

  it('a second export after new data adds one snapshot; the previous one still reads the old rows; no change writes nothing', async () => {
    const before = metadataOf('conversations');
    const wh = await openWarehouse(warehouse);
    try {
      await wh.conn.run(`INSERT INTO conversations SELECT project_id, id || '-again', occurred_at + INTERVAL 40 DAY, query, response, response_type,
        resolution_status, query_category, page_url, page_path, extra, first_seen_at, last_seen_at, updated_at, content_hash FROM conversations WHERE project_id = 'alpha' LIMIT 5`);
      await wh.conn.run(`UPDATE conversations SET query = 'changed' WHERE id = (SELECT min(id) FROM conversations WHERE project_id = 'beta')`);
    } finally {
      wh.close();
    }
    const old = expected.get('conversations')!;
    expected.set('conversations', (await warehouseRows()).get('conversations')!.rows);
    const s = await exportTo(lake);
    expect(s.iceberg!.snapshots).toEqual({ conversations: 'overwrite' });
    const after = metadataOf('conversations');
    expect(after.snapshots.length).toBe(before.snapshots.length + 1);
    expect(after.snapshots.at(-1)!['parent-snapshot-id']).toBe(before['current-snapshot-id']);
    const summary = after.snapshots.at(-1)!.summary;
    expect(summary['deleted-data-files'], 'the changed day of beta is replaced').toBe('1');
    expect(Number(summary['added-data-files']), 'its new file and the new days of alpha').toBeGreaterThanOrEqual(2);
    expect(summary['total-records']).toBe(String(expected.get('conversations')!.length));
    const url = `${http.url}/conversations`;
    const cols = after.schemas.at(-1)!.fields.map((f) => f.name);
    expect((await readIcebergTable(url)).map((r) => rowKey(r, cols)).sort()).toEqual(expected.get('conversations'));
    const version = readFileSync(join(lake, 'conversations', 'metadata', 'version-hint.text'), 'utf8').trim();
    expect((await readIcebergMetadata(url, `v${Number(version) - 1}.metadata.json`))['current-snapshot-id']).toBe(before['current-snapshot-id']);
    const previous = await readIcebergTable(url, `v${Number(version) - 1}.metadata.json`);
    expect(previous.map((r) => rowKey(r, cols)).sort(), 'the previous snapshot reads the old rows').toEqual(old);

    const stamps = fileStamps(lake);
    const again = await exportTo(lake);
    expect(again.iceberg!.snapshots).toEqual({});
    expect(fileStamps(lake), 'no file written, replaced or removed').toEqual(stamps);
  });

  it('an S3 lake (s3rver): icebird reads every table, rows equal; no change uploads nothing', async () => {
    const url = `s3://${s3.bucket}/team/lake`;
    await exportTo(url, s3.env);
    const m = JSON.parse(await s3.getText('team/lake/conversations/metadata/v1.metadata.json')) as TableMetadata;
    expect(m.location).toBe(`${url}/conversations`);
    await expectEveryTableReads((name) => `https://${s3.bucket}.s3.amazonaws.com/team/lake/${name}`);
    const objects = await s3.list('team/lake/');
    const again = await exportTo(url, s3.env);
    expect(again.iceberg!.snapshots).toEqual({});
    expect(await s3.list('team/lake/'), 'not one object added, replaced or removed').toEqual(objects);
  });
});
