// The practical ceiling on this machine: DuckDB's own JSON reader loading the saved pages into a
// flat table with the warehouse's columns, in a fresh database file, timed in the bench process.
// No per-page transactions, no upsert, no key, no sources table: the fastest path DuckDB has.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { sqlFile } from '../load/sql-files.js';

export interface Ceiling {
  rows: number;
  ms: number;
  rowsPerS: number;
}


export async function duckdbCeiling(pagesDir: string, workDir: string): Promise<Ceiling> {
  const path = join(workDir, 'ceiling.duckdb');
  rmSync(path, { force: true });
  const instance = await DuckDBInstance.create(path, { autoinstall_known_extensions: 'false', autoload_known_extensions: 'true' });
  const conn = await instance.connect();
  try {
    await conn.run("SET TimeZone = 'UTC'");
    const sql = sqlFile('bench/duckdb-ceiling.sql').replaceAll('{files}', join(pagesDir, '*.json').replaceAll("'", "''"));
    const started = performance.now();
    await conn.run(sql);
    await conn.run('CHECKPOINT');
    const ms = performance.now() - started;
    const rows = Number((await conn.runAndReadAll('SELECT count(*) FROM flat')).getRows()[0]![0]);
    return { rows, ms, rowsPerS: rows / (ms / 1000) };
  } finally {
    conn.closeSync();
    instance.closeSync();
    rmSync(path, { force: true });
  }
}
