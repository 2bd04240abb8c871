// The practical ceiling on this machine: DuckDB's own JSON reader loading the saved pages into a
// flat table with the warehouse's columns, in a fresh database file, timed in the bench process.
// No per-page transactions, no upsert, no key, no sources table: the fastest path DuckDB has.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { PACKAGE_ROOT } from '../../src/core/paths.js';

// The bench's SQL lives beside it (not in sql/, which ships); found from the package root, so it
// reads the same from test/bench under vitest and from .bench-build after `npm run bench:build`.
const CEILING_SQL = join(PACKAGE_ROOT, 'test', 'bench', 'duckdb-ceiling.sql');

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
    const sql = readFileSync(CEILING_SQL, 'utf8').replaceAll('{files}', join(pagesDir, '*.json').replaceAll("'", "''"));
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
