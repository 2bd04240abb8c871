// A publish's catalog from the previous one (issue 20, "publish writes only what changed"): writing
// the catalog from nothing creates every table's view, every macro and every view of sql/views, and
// each CREATE binds its query (reading the Parquet files' metadata): about 0.9 s of a 1.5 s steady
// publish at 200k turns on a loaded 2-core host, whatever the run changed. When the previous
// catalog was built for the same schema (the key below), the new one is a copy of it in which only
// the views whose file list changed are replaced, and the manifest row: readers get the same
// names, columns and rows as from a catalog written anew (test/publish/read-surface.test.ts reads
// every table and view after steady publishes).
import { copyFileSync, constants } from 'node:fs';
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier, quotedString } from '../../core/sql-quoting.js';
import { sqlFolder } from '../../warehouse/sql-files.js';
import { CATALOG_ALIAS, MANIFEST_SCHEMA, MANIFEST_TABLE, parquetViewSql, type Column } from './catalog.js';

/** Bump when writeCatalog's output changes shape: a catalog of another key is written anew. */
const CATALOG_FORMAT = 1;

/**
 * What a catalog's content depends on besides its file lists: every table's columns and types, the
 * migrations (the macros come with them), the views' SQL, and the parts folder (views name files by
 * absolute path).
 */
export function catalogKey(columns: ReadonlyMap<string, readonly Column[]>, migrations: number, partsDir: string): string {
  return createHash('sha256')
    .update(JSON.stringify([CATALOG_FORMAT, [...columns], migrations, sqlFolder('views').map((v) => v.sql), partsDir]))
    .digest('hex');
}

/** The tables whose file list differs (same table set on both sides: the caller compared the keys). */
export function changedViews(previous: ReadonlyMap<string, readonly string[]>, next: ReadonlyMap<string, readonly string[]>): string[] {
  return [...next].filter(([table, files]) => JSON.stringify(previous.get(table)) !== JSON.stringify(files)).map(([table]) => table);
}

/**
 * Copies the catalog at `from` to `path` (a fresh temporary name) and replaces the views of
 * `changed` and the manifest in one transaction. Detached (complete, without a WAL) when it returns.
 */
export async function updateCatalog(conn: DuckDBConnection, a: {
  from: string;
  path: string;
  columns: ReadonlyMap<string, readonly Column[]>;
  parquet: ReadonlyMap<string, readonly string[]>;
  changed: readonly string[];
  manifest: string;
}): Promise<void> {
  copyFileSync(a.from, a.path, constants.COPYFILE_EXCL);
  await conn.run(`ATTACH ${quotedString(a.path)} AS ${CATALOG_ALIAS}`);
  try {
    await conn.run('BEGIN TRANSACTION');
    try {
      for (const table of a.changed) {
        const sql = parquetViewSql(`${CATALOG_ALIAS}.main.${quotedIdentifier(table)}`, a.columns.get(table)!, a.parquet.get(table)!);
        await conn.run(sql.replace(/^CREATE VIEW /, 'CREATE OR REPLACE VIEW '));
      }
      await conn.run(`UPDATE ${CATALOG_ALIAS}.${MANIFEST_SCHEMA}.${MANIFEST_TABLE} SET manifest = $m`, { m: a.manifest });
      await conn.run('COMMIT');
    } catch (err) {
      await conn.run('ROLLBACK').catch(() => {});
      throw err;
    }
  } finally {
    await conn.run(`DETACH ${CATALOG_ALIAS}`);
  }
}
