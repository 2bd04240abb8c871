// The read catalog: a small DuckDB file that readers open as `read_path`. It holds
//   - one VIEW per Parquet-backed table, named as the warehouse table, over an explicit list of
//     immutable Parquet files by ABSOLUTE path (a relative path would resolve from the reader's
//     working directory), each column cast back to the warehouse's exact type;
//   - one VIEW per other warehouse table over its one Parquet file (src/sync/publish/surface-native.ts;
//     a table absent from `parquet` is still copied natively), and the warehouse's macros;
//   - every view of sql/views, created in the catalog so they read the tables above;
//   - docs_etl.read_surface: the publish's own manifest (which files are current, which retired).
// DuckDB cannot bind a file path or an attached database name as a parameter, so those (our own
// paths and identifiers, never user values) are quoted with DuckDB's own quoting (quotedString, quotedIdentifier); row values are never spliced.
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier, quotedString } from '../../core/sql-quoting.js';
import { sqlFile, sqlFolder } from '../../warehouse/sql-files.js';

export interface Column {
  name: string;
  type: string;
}

/** Schema and table of the publish's manifest inside the catalog. */
export const MANIFEST_SCHEMA = 'docs_etl';
export const MANIFEST_TABLE = 'read_surface';
export const CATALOG_ALIAS = 'docs_etl_read_catalog';
const PREVIOUS = 'docs_etl_read_previous';

/** The warehouse's tables (main schema) and their columns, in column order. */
export async function readTableColumns(conn: DuckDBConnection): Promise<Map<string, Column[]>> {
  const out = new Map<string, Column[]>();
  for (const r of (await conn.runAndReadAll(sqlFile('publish/table-columns.sql'))).getRowObjectsJS()) {
    const table = String(r.table_name);
    out.set(table, [...(out.get(table) ?? []), { name: String(r.column_name), type: String(r.data_type) }]);
  }
  return out;
}

/** A view over Parquet files with the table's exact columns and types (no files: no rows). */
export function parquetViewSql(target: string, columns: readonly Column[], files: readonly string[]): string {
  const select = columns.map((c) => `CAST(${quotedIdentifier(c.name)} AS ${c.type}) AS ${quotedIdentifier(c.name)}`).join(', ');
  if (!files.length) return `CREATE VIEW ${target} AS SELECT ${columns.map((c) => `CAST(NULL AS ${c.type}) AS ${quotedIdentifier(c.name)}`).join(', ')} WHERE false`;
  return `CREATE VIEW ${target} AS SELECT ${select} FROM read_parquet([${files.map(quotedString).join(', ')}])`;
}

/**
 * Writes a complete catalog at `path` (a fresh temporary file) from the writer's connection:
 * `parquet` maps each Parquet-backed table to its absolute file paths; every other table in
 * `columns` is copied natively. Detached (so complete, without a WAL) when it returns.
 */
export async function writeCatalog(conn: DuckDBConnection, a: {
  path: string;
  columns: ReadonlyMap<string, readonly Column[]>;
  parquet: ReadonlyMap<string, readonly string[]>;
  manifest: string;
}): Promise<void> {
  const wh = String((await conn.runAndReadAll('SELECT current_database()')).getRows()[0]![0]);
  await conn.run(`ATTACH ${quotedString(a.path)} AS ${CATALOG_ALIAS}`);
  try {
    for (const [table, columns] of a.columns) {
      const target = `${CATALOG_ALIAS}.main.${quotedIdentifier(table)}`;
      const files = a.parquet.get(table);
      if (files) await conn.run(parquetViewSql(target, columns, files));
      else await conn.run(`CREATE TABLE ${target} AS SELECT * FROM ${quotedIdentifier(wh)}.main.${quotedIdentifier(table)}`);
    }
    for (const m of (await conn.runAndReadAll(sqlFile('publish/macros.sql'))).getRowObjectsJS()) {
      const params = (m.parameters as unknown[]).map((p) => quotedIdentifier(String(p))).join(', ');
      const table = m.function_type === 'table_macro' ? 'TABLE ' : '';
      await conn.run(`CREATE MACRO ${CATALOG_ALIAS}.main.${quotedIdentifier(String(m.function_name))}(${params}) AS ${table}${String(m.macro_definition)}`);
    }
    await conn.run(`CREATE SCHEMA ${CATALOG_ALIAS}.${MANIFEST_SCHEMA}`);
    await conn.run(`CREATE TABLE ${CATALOG_ALIAS}.${MANIFEST_SCHEMA}.${MANIFEST_TABLE} (manifest VARCHAR)`);
    await conn.run(`INSERT INTO ${CATALOG_ALIAS}.${MANIFEST_SCHEMA}.${MANIFEST_TABLE} VALUES ($m)`, { m: a.manifest });
    // The views of sql/views bind their unqualified names in the catalog (as a reader will).
    await conn.run(`USE ${CATALOG_ALIAS}`);
    try {
      for (const v of sqlFolder('views')) await conn.run(v.sql);
    } finally {
      await conn.run(`USE ${quotedIdentifier(wh)}`);
    }
  } finally {
    await conn.run(`DETACH ${CATALOG_ALIAS}`);
  }
}

/**
 * What the catalog at `path` says about itself: its manifest text (null: it opened and holds none,
 * e.g. a full copy of the warehouse), or the error that kept it from opening (a reader holding it
 * read-write, an I/O error). The caller tells "absent" and "not a DuckDB file" apart before calling.
 */
export async function readCatalogManifest(conn: DuckDBConnection, path: string): Promise<{ manifest: string | null } | { error: string }> {
  try {
    await conn.run(`ATTACH ${quotedString(path)} AS ${PREVIOUS} (READ_ONLY)`);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
  try {
    const found = await conn.runAndReadAll(
      'SELECT count(*) FROM duckdb_tables() WHERE database_name = $db AND schema_name = $s AND table_name = $t',
      { db: PREVIOUS, s: MANIFEST_SCHEMA, t: MANIFEST_TABLE },
    );
    if (Number(found.getRows()[0]![0]) === 0) return { manifest: null };
    const rows = (await conn.runAndReadAll(`SELECT manifest FROM ${PREVIOUS}.${MANIFEST_SCHEMA}.${MANIFEST_TABLE}`)).getRows();
    return { manifest: rows.length ? String(rows[0]![0]) : null };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  } finally {
    await conn.run(`DETACH ${PREVIOUS}`).catch(() => {});
  }
}
