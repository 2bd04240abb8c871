import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { SchemaElement } from 'hyparquet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { FatalError, StoppedError } from '../../src/core/errors.js';
import { createLogger, silentLogger } from '../../src/core/logger.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import type { LakeTable } from '../../src/sync/pipeline/lake-table.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { PIN_RE } from '../../src/outputs/lake/iceberg/remove-unreferenced.js';
import { tempDir } from '../helpers/tmp.js';
import { fileStamps, fillWarehouse, listFiles, readLakeFiles, sortRows, utcDay, warehouseTable, type Row } from './lake-fixture.js';

/** The Parquet type of a column as the lake contract states it. */
function columnType(el: SchemaElement): string {
  if (el.type === 'BYTE_ARRAY' && el.converted_type === 'UTF8') return 'string';
  const lt = el.logical_type;
  if (el.type === 'INT64' && lt?.type === 'TIMESTAMP') return `timestamp(${lt.unit}, utc=${lt.isAdjustedToUTC})`;
  if (el.type === 'INT32' && el.converted_type === 'INT_32') return 'int32';
  if (el.type === 'INT64' && el.converted_type === 'INT_64') return 'int64';
  return `${el.type}/${el.converted_type}`;
}

const TS = 'timestamp(MICROS, utc=true)';
const CONTRACT: Record<string, Record<string, string>> = {
  conversations: {
    project_id: 'string', id: 'string', occurred_at: TS, query: 'string', response: 'string', response_type: 'string',
    resolution_status: 'string', query_category: 'string', page_url: 'string', page_path: 'string', extra: 'string',
    first_seen_at: TS, last_seen_at: TS, updated_at: TS,
  },
  sources: { project_id: 'string', conversation_id: 'string', occurred_at: TS, position: 'int32', title: 'string', url: 'string' },
  sync_runs: {
    run_id: 'string', project_id: 'string', pipeline: 'string', started_at: TS, finished_at: TS, status: 'string',
    window_from: TS, window_to: TS, requests: 'int32', pages: 'int32', rows_upserted: 'int64', rows_quarantined: 'int64', error: 'string',
  },
  quarantine: { project_id: 'string', run_id: 'string', received_at: TS, error: 'string', raw: 'string', pipeline: 'string' },
};

/** The four tables this file's fixture fills (every table: lake-every-table.test.ts). */
const TABLES = LAKE_TABLES.filter((t) => ['conversations', 'sources', 'sync_runs', 'quarantine'].includes(t.name));

describe('exportLake', () => {
  let tmp: ReturnType<typeof tempDir>;
  let wh: Warehouse;
  let lake: string;
  const run = (opts: { full?: boolean; projects?: string[] } = {}) =>
    exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: TABLES }, { outDir: lake, ...opts });
  const query = async (sql: string) => (await wh.conn.runAndReadAll(sql)).getRowObjectsJS();
  const dataStamps = () => new Map([...fileStamps(lake)].filter(([rel]) => rel.endsWith('.parquet')));
  /** The Hive layout's files: without each table's Iceberg metadata and pinned snapshot files (iceberg-*.test.ts check those). */
  const hiveOnly = (m: Map<string, string>) => new Map([...m].filter(([rel]) => !rel.includes('/metadata/') && !PIN_RE.test(rel)));
  const changedFiles = (before: Map<string, string>, after: Map<string, string>) =>
    [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k)).sort();

  beforeEach(async () => {
    tmp = tempDir('docs-etl-lake-');
    lake = join(tmp.dir, 'lake');
    wh = await openWarehouse(join(tmp.dir, 'w.duckdb'));
    await fillWarehouse(wh.conn, { days: 5, turnsPerDay: 20 });
  });
  afterEach(() => {
    wh.close();
    tmp.cleanup();
  });

  /** The lake, read with hyparquet, holds exactly the warehouse: files in the right partitions, rows, values, types. */
  async function expectLakeEqualsWarehouse(): Promise<void> {
    for (const table of ['conversations', 'sources'] as const) {
      const files = await readLakeFiles(lake, table);
      const perPartition = new Map<string, number>();
      for (const f of files) {
        expect(f.rel).toMatch(new RegExp(`^${table}/project_id=[^/]+/date=\\d{4}-\\d{2}-\\d{2}/part-0\\.parquet$`));
        expect(f.rows.length).toBeGreaterThan(0);
        for (const r of f.rows) {
          expect(r.project_id).toBe(f.projectId);
          expect(utcDay(r.occurred_at)).toBe(f.date);
        }
        perPartition.set(`${f.projectId}|${f.date}`, f.rows.length);
      }
      const counts = await query(`SELECT project_id, strftime(timezone('UTC', occurred_at), '%Y-%m-%d') AS d, count(*) AS n FROM ${table} GROUP BY ALL`);
      expect(perPartition).toEqual(new Map(counts.map((c) => [`${c.project_id}|${c.d}`, Number(c.n)])));
      expect(sortRows(files.flatMap((f) => f.rows))).toEqual(await warehouseTable(wh.conn, table));
    }
    for (const table of ['sync_runs', 'quarantine'] as const) {
      const files = await readLakeFiles(lake, table);
      expect(files.map((f) => f.rel)).toEqual([`${table}/part-0.parquet`]);
      expect(sortRows(files[0]!.rows)).toEqual(await warehouseTable(wh.conn, table));
    }
    expect(listFiles(lake).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }

  it('writes Hive partitions that hyparquet reads back equal to the warehouse, with the contract types and zstd', async () => {
    const s = await run();
    const partitions = await query(`SELECT DISTINCT project_id, CAST(timezone('UTC', occurred_at) AS DATE) FROM conversations`);
    const sourceParts = await query(`SELECT DISTINCT project_id, CAST(timezone('UTC', occurred_at) AS DATE) FROM sources`);
    const files = partitions.length + sourceParts.length + 2;
    expect(s.partitions).toEqual({ total: files, written: files, skipped: 0, removed: 0 });
    expect(s.tablesWritten).toEqual(['conversations', 'sources', 'sync_runs', 'quarantine']);
    expect(s.rows.conversations).toBe(Number((await query('SELECT count(*) n FROM conversations'))[0]!.n));
    expect(s.bytes).toBeGreaterThan(0);
    await expectLakeEqualsWarehouse();

    // Hive escaping of the project id; the turn stored from -02:00 lands on its UTC day.
    expect(existsSync(join(lake, 'conversations', 'project_id=docs%2Fü b', 'date=2026-03-05', 'part-0.parquet'))).toBe(true);
    const late = (await readLakeFiles(lake, 'conversations')).find((f) => f.rows.some((r) => r.id === 'late-turn'))!;
    expect(late.rel).toBe('conversations/project_id=acme/date=2026-03-02/part-0.parquet');

    for (const table of Object.keys(CONTRACT)) {
      for (const f of await readLakeFiles(lake, table)) {
        const cols = f.metadata.schema.slice(1);
        expect(Object.fromEntries(cols.map((c) => [c.name, columnType(c)]))).toEqual(CONTRACT[table]);
        expect(Object.keys(f.rows[0] ?? {})).toEqual(Object.keys(CONTRACT[table]!)); // column order too
        for (const rg of f.metadata.row_groups) for (const c of rg.columns) expect(c.meta_data?.codec).toBe('ZSTD');
      }
    }
    const manifest = JSON.parse(readFileSync(join(lake, '_docs_etl', 'manifest.json'), 'utf8'));
    expect(manifest.files).toHaveLength(files);
    expect(manifest.files.filter((e: { table: string }) => e.table === 'conversations')).toHaveLength(partitions.length);
    expect(manifest.files.find((e: { key: string }) => e.key === late.rel)).toMatchObject({
      table: 'conversations', partition: { project_id: 'acme', date: '2026-03-02' }, rows: late.rows.length,
    });
    expect(existsSync(join(lake, '_docs_etl', 'lock'))).toBe(false);
  });

  it('DuckDB reads the lake with hive_partitioning and counts what the warehouse has', async () => {
    await run();
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    try {
      const read = async (table: string) => (await c.runAndReadAll(
        `SELECT project_id, CAST(date AS VARCHAR) AS d, count(*) AS n FROM read_parquet($glob, hive_partitioning = true) GROUP BY ALL`,
        { glob: join(lake, table, '**', '*.parquet') },
      )).getRowObjectsJS();
      for (const table of ['conversations', 'sources']) {
        const expected = await query(`SELECT project_id, strftime(timezone('UTC', occurred_at), '%Y-%m-%d') AS d, count(*) AS n FROM ${table} GROUP BY ALL`);
        expect(sortRows(await read(table))).toEqual(sortRows(expected));
      }
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  });

  it('rewrites only changed partitions: none when nothing changed, then exactly the updated and the new one', async () => {
    await run();
    const first = fileStamps(lake);
    const again = await run();
    expect(again.partitions.written).toBe(0);
    expect(again.partitions.skipped).toBe(again.partitions.total);
    expect(again.tablesWritten).toEqual([]);
    expect(again.files).toEqual({ written: 0, removed: 0, tempRemoved: 0 });
    expect(fileStamps(lake)).toEqual(first); // not even the manifest was touched

    await wh.conn.run(`UPDATE conversations SET query_category = 'changed', updated_at = now() WHERE project_id = 'beta' AND id = 'conv-2-5'`);
    await wh.conn.run(`INSERT INTO conversations VALUES ('acme', 'new-day', '2026-05-01 12:00:00+00', 'q', 'r', 'answer', 'answered',
      NULL, NULL, NULL, NULL, now(), now(), now(), NULL)`);
    const third = await run();
    expect(third.partitions.written).toBe(2);
    expect(third.rows.conversations).toBe(20 + 1);
    const expected = [
      '_docs_etl/manifest.json',
      'conversations/project_id=acme/date=2026-05-01/part-0.parquet',
      'conversations/project_id=beta/date=2026-03-03/part-0.parquet', // its sources did not change: not rewritten
    ];
    expect(changedFiles(hiveOnly(first), hiveOnly(fileStamps(lake)))).toEqual(expected);
    await expectLakeEqualsWarehouse();
  });

  it('notices changed sources, re-read turns (last_seen_at), deleted partitions, deleted files, leftovers and orphans', async () => {
    await run();
    let before = dataStamps();
    // sources replaced without touching the turn's updated_at (the loader does that on a re-read)
    await wh.conn.run(`UPDATE sources SET title = 'renamed' WHERE project_id = 'acme' AND occurred_at::DATE = DATE '2026-03-04' AND position = 1`);
    // a re-read moves last_seen_at only
    await wh.conn.run(`UPDATE conversations SET last_seen_at = now() WHERE project_id = 'beta' AND id = 'conv-1-3'`);
    // a whole partition gone from the warehouse
    await wh.conn.run(`DELETE FROM sources WHERE project_id = 'docs/ü b' AND occurred_at::DATE = DATE '2026-03-05'`);
    await wh.conn.run(`DELETE FROM conversations WHERE project_id = 'docs/ü b' AND occurred_at::DATE = DATE '2026-03-05'`);
    let s = await run();
    expect(s.partitions).toMatchObject({ written: 2, removed: 2 });
    expect(changedFiles(before, dataStamps())).toEqual([
      'conversations/project_id=beta/date=2026-03-02/part-0.parquet',
      'conversations/project_id=docs%2Fü b/date=2026-03-05/part-0.parquet',
      'sources/project_id=acme/date=2026-03-04/part-0.parquet',
      'sources/project_id=docs%2Fü b/date=2026-03-05/part-0.parquet',
    ]);
    // The directory goes once no snapshot within readGrace names its pinned file; no Parquet file is left in it.
    expect(listFiles(join(lake, 'conversations', 'project_id=docs%2Fü b', 'date=2026-03-05')).filter((f) => f.endsWith('.parquet'))).toEqual([]);
    await expectLakeEqualsWarehouse();

    // a data file deleted by hand, a temp file from a killed run, an orphan partition: repaired, removed, removed
    rmSync(join(lake, 'sources', 'project_id=beta', 'date=2026-03-01', 'part-0.parquet'));
    const leftover = join(lake, 'conversations', 'project_id=acme', 'date=2026-03-01', '.part-0.1234-abcd.parquet.tmp');
    writeFileSync(leftover, 'half a file');
    const orphanDir = join(lake, 'conversations', 'project_id=ghost', 'date=2020-01-01');
    mkdirSync(orphanDir, { recursive: true });
    writeFileSync(join(orphanDir, 'part-0.parquet'), 'not ours any more');
    before = dataStamps();
    s = await run();
    expect(s.partitions.written).toBe(1);
    expect(s.files).toEqual({ written: 1, removed: 1, tempRemoved: 1 });
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(join(lake, 'conversations', 'project_id=ghost'))).toBe(false);
    expect(changedFiles(before, dataStamps())).toEqual([
      'conversations/project_id=ghost/date=2020-01-01/part-0.parquet',
      'sources/project_id=beta/date=2026-03-01/part-0.parquet',
    ]);
    await expectLakeEqualsWarehouse();
  });

  it('a table declared later reaches the lake with no change to the exporter; only its files are written', async () => {
    await run();
    const before = dataStamps();
    // A new declaration (as a new pipeline would add): the turns again, one file per project.
    const later: LakeTable = { name: 'turns_by_project', select: 'lake/conversations.sql', layout: { by: 'project' }, order: ['occurred_at', 'id'] };
    const s = await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: [...TABLES, later] }, { outDir: lake });
    expect(s.tablesWritten).toEqual(['turns_by_project']);
    expect(s.partitions.written).toBe(3);
    const after = dataStamps();
    expect(changedFiles(before, after)).toEqual([
      'turns_by_project/project_id=acme/part-0.parquet',
      'turns_by_project/project_id=beta/part-0.parquet',
      'turns_by_project/project_id=docs%2Fü b/part-0.parquet',
    ]);
    const rows = (await readLakeFiles(lake, 'turns_by_project')).flatMap((f) => f.rows);
    expect(sortRows(rows)).toEqual(await warehouseTable(wh.conn, 'conversations'));
    const manifest = JSON.parse(readFileSync(join(lake, '_docs_etl', 'manifest.json'), 'utf8'));
    expect(manifest.tables.turns_by_project).toMatchObject({ layout: 'project' });
  });

  it('--full rewrites every file', async () => {
    await run();
    const before = dataStamps();
    const s = await run({ full: true });
    expect(s.full).toBe(true);
    expect(s.partitions.written).toBe(s.partitions.total);
    expect(s.tablesWritten).toEqual(['conversations', 'sources', 'sync_runs', 'quarantine']);
    const after = dataStamps();
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [rel, stamp] of after) expect(stamp, rel).not.toBe(before.get(rel));
    await expectLakeEqualsWarehouse();
  });

  it('--project limits the partitions considered and leaves the others alone', async () => {
    await run({ projects: ['beta'] });
    const files = listFiles(join(lake, 'conversations')).map((f) => f.slice(lake.length + 1)).filter((f) => f.endsWith('.parquet'));
    expect(files.every((f) => f.startsWith('conversations/project_id=beta/'))).toBe(true);
    await run();
    const before = dataStamps();
    await wh.conn.run(`UPDATE conversations SET updated_at = now(), query = 'x' WHERE id = 'conv-0-0'`); // in every project
    const s = await run({ projects: ['acme'] });
    expect(s.partitions.written).toBe(1);
    expect(changedFiles(before, dataStamps())).toEqual(['conversations/project_id=acme/date=2026-03-01/part-0.parquet']);
    expect((await run()).partitions.written).toBe(2); // beta and docs/ü b catch up
    await expectLakeEqualsWarehouse();
  });

  it('--project over a lake whose manifest is unreadable (older version, damaged) deletes no other project\'s files', async () => {
    await run();
    const others = () => listFiles(join(lake, 'conversations')).filter((f) => !f.includes('/project_id=beta/') && !f.includes('/metadata/') && !PIN_RE.test(f));
    const before = others();
    expect(before.length).toBeGreaterThan(0);
    writeFileSync(join(lake, '_docs_etl', 'manifest.json'), '{"version": 1, "files": []}');
    await run({ projects: ['beta'] });
    expect(others()).toEqual(before);
    // The export of every project names them in the new manifest again, each once.
    await run();
    const manifest = JSON.parse(readFileSync(join(lake, '_docs_etl', 'manifest.json'), 'utf8')) as { files: { key: string }[] };
    const named = new Set(manifest.files.map((f) => f.key));
    for (const f of others()) expect(named.has(f.slice(lake.length + 1)), f).toBe(true);
    await expectLakeEqualsWarehouse();
  });

  it('refuses a lake another live export holds; takes over a lock whose process is gone', async () => {
    const lock = join(lake, '_docs_etl', 'lock');
    mkdirSync(join(lake, '_docs_etl'), { recursive: true });
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: 'x', instance: 'other' }));
    await expect(run()).rejects.toThrow(FatalError);
    await expect(run()).rejects.toThrow(/being written by another export \(PID \d+/);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(lock, JSON.stringify({ pid: dead, host: hostname(), startedAt: 'x', instance: 'other' }));
    expect((await run()).partitions.written).toBeGreaterThan(0);
    expect(existsSync(lock)).toBe(false);
  });

  it('stops between partitions when its signal aborts, keeps what it wrote, and the next run continues', async () => {
    const controller = new AbortController();
    // Abort as soon as the first partition is logged as written.
    const destination = new Writable({
      write(chunk, _enc, cb) {
        if (String(chunk).includes('lake file written')) controller.abort();
        cb();
      },
    });
    const logger = createLogger({ level: 'debug', destination });
    const stopped = exportLake({ conn: wh.conn, logger, clock: systemClock, signal: controller.signal, tables: TABLES }, { outDir: lake });
    await expect(stopped).rejects.toThrow(StoppedError);
    await expect(stopped).rejects.toThrow(/stopped after 1 of \d+ file\(s\)/);
    const manifest = JSON.parse(readFileSync(join(lake, '_docs_etl', 'manifest.json'), 'utf8'));
    expect(manifest.files).toHaveLength(1);
    expect(existsSync(join(lake, '_docs_etl', 'lock'))).toBe(false);
    const s = await run();
    expect(s.partitions.skipped).toBe(1);
    expect(s.partitions.written).toBe(s.partitions.total - 1);
    await expectLakeEqualsWarehouse();
  });

  it('treats an unreadable manifest as none: everything is rewritten', async () => {
    await run();
    writeFileSync(join(lake, '_docs_etl', 'manifest.json'), '{"version": 1, "part');
    const s = await run();
    expect(s.partitions.written).toBe(s.partitions.total);
    await expectLakeEqualsWarehouse();
  });

  it('keeps row values exactly (spot check of unicode, NULLs, JSON and microseconds)', async () => {
    await run();
    const rows = (await readLakeFiles(lake, 'conversations')).flatMap((f) => f.rows);
    const r = rows.find((x: Row) => x.project_id === 'docs/ü b' && x.id === 'conv-0-6')!;
    expect(r.query).toBe('Wie geht\'s "6"? 日本語 🚀\ndocs/ü b');
    expect(r.query_category).toBe('cat-2');
    expect(r.page_url).toBeNull();
    expect(JSON.parse(String(r.extra))).toEqual({ locale: 'de', n: 6, tags: ['ä', 'b'] });
    const [w] = await query(`SELECT epoch_us(occurred_at) AS us FROM conversations WHERE project_id = 'docs/ü b' AND id = 'conv-0-6'`);
    expect(r.occurred_at).toBe(w!.us);
  });
});
