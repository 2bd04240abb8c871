// doctor's read-snapshot check under a read path the user chose with a quote in it: the catalog's
// views name their Parquet files by a string literal (DuckDB's quoting doubles the quote), so the
// check must look for the parts folder as DuckDB quotes it, or every view reads as "outside".
// Real DuckDB files, the real probe process.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { quotedString } from '../../src/core/sql-quoting.js';
import { readSurfaceDir } from '../../src/sync/publish/surface-files.js';
import { checkReadSnapshot } from '../../src/tools/doctor/read-check.js';

let root: string;
let readPath: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'read-check-'));
  const dir = join(root, `it's $now; -- {lo}`);
  mkdirSync(dir);
  readPath = join(dir, 'read.duckdb');
  const parts = readSurfaceDir(readPath);
  mkdirSync(parts);
  const inst = await DuckDBInstance.create(readPath);
  const conn = await inst.connect();
  const file = quotedString(join(parts, 'page_views.parquet'));
  await conn.run(`COPY (SELECT 'p' AS project_id, 1 AS views) TO ${file} (FORMAT parquet)`);
  await conn.run(`CREATE VIEW page_views AS SELECT * FROM read_parquet([${file}])`);
  await conn.run('CREATE SCHEMA docs_etl');
  await conn.run('CREATE TABLE docs_etl.read_surface (manifest VARCHAR)');
  conn.closeSync();
  inst.closeSync();
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('a catalog under a folder named with a quote: its views are inside its parts folder (✓, not "outside")', { timeout: 60_000 }, async () => {
  const r = await checkReadSnapshot(readPath);
  expect(r.detail).not.toMatch(/outside/);
  expect(r.status).toBe('ok');
});
