// `query`'s allow-list is of read-only table functions, not of statement kinds (issue 33, item 6):
// `CALL enable_logging(...)`, `SELECT * FROM enable_logging(...)` or `EXPLAIN ANALYZE` of it change
// the session's logging despite the locked configuration, and `enable_logging(storage='file')` with
// external access off aborts the process. DuckDB's own parser (json_serialize_sql) names every table
// function a statement calls, anywhere in it (joins, subqueries, CTEs); each must be on the list
// below. This runs before any statement is prepared: a table function's bind already acts.
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../../core/errors.js';
import { splitStatements, stripLeadingComments } from './split-statements.js';

/** Table functions readers need: generators, the catalog's metadata, file readers (external access is off). */
export const READ_ONLY_TABLE_FUNCTIONS: ReadonlySet<string> = new Set([
  'range', 'generate_series', 'unnest', 'repeat', 'json_each', 'json_tree',
  'duckdb_columns', 'duckdb_constraints', 'duckdb_databases', 'duckdb_dependencies', 'duckdb_functions',
  'duckdb_indexes', 'duckdb_keywords', 'duckdb_schemas', 'duckdb_sequences', 'duckdb_settings',
  'duckdb_tables', 'duckdb_types', 'duckdb_views', 'duckdb_memory', 'duckdb_optimizers',
  'pragma_table_info', 'pragma_show', 'pragma_version', 'pragma_platform', 'pragma_database_size',
  'pragma_storage_info', 'pragma_metadata_info', 'pragma_collations', 'pg_timezone_names', 'icu_calendar_names',
  // Files: refused by DuckDB itself (enable_external_access = false) with its own message.
  'read_parquet', 'parquet_scan', 'parquet_metadata', 'parquet_schema', 'parquet_file_metadata', 'parquet_kv_metadata',
  'read_csv', 'read_csv_auto', 'read_json', 'read_json_auto', 'read_ndjson', 'read_ndjson_auto', 'read_text', 'read_blob',
  'glob', 'sniff_csv',
]);

/** Statements whose own form `SELECT` rewrites into one the parser serializes (same functions). */
const REWRITES: [RegExp, string][] = [
  [/^CALL\s+/i, 'SELECT * FROM '],
  [/^EXPLAIN\s+(ANALY[SZ]E\s+)?(\([^)]*\)\s*)?/i, ''],
  [/^SET\s+VARIABLE\s+("[^"]*"|[\w$]+)\s*(=|TO)\s*/i, 'SELECT '],
];

const REFUSED = '(the warehouse is written only by docs-etl sync)';

/**
 * Throws a UsageError (one line) unless every statement of `sql` is a read whose table functions
 * are all read-only. `count` is DuckDB's own count of the statements (extract_statements).
 */
export async function checkReadOnlyFunctions(conn: DuckDBConnection, sql: string, count: number): Promise<void> {
  const whole = await tableFunctionsOf(conn, sql);
  if (whole) return refuseFunctions(whole);
  const pieces = splitStatements(sql);
  if (pieces.length !== count) {
    throw new UsageError('query runs read-only SQL: its statements could not be checked one by one; give them as separate queries');
  }
  for (const piece of pieces) await checkStatement(conn, piece);
}

async function checkStatement(conn: DuckDBConnection, text: string): Promise<void> {
  const stmt = stripLeadingComments(text);
  const direct = await tableFunctionsOf(conn, stmt);
  if (direct) return refuseFunctions(direct);
  for (const [form, replacement] of REWRITES) {
    if (!form.test(stmt)) continue;
    const names = await tableFunctionsOf(conn, stmt.replace(form, replacement));
    if (names) return refuseFunctions(names);
  }
  const keyword = (/^[A-Za-z]+/.exec(stmt)?.[0] ?? 'unknown').toUpperCase();
  // SET and RESET of a setting: constants only, and the configuration is locked (query-reader.ts).
  if ((keyword === 'SET' || keyword === 'RESET') && !/^SET\s+VARIABLE\b/i.test(stmt) && !stmt.includes('(')) return;
  if (keyword === 'PRAGMA') {
    throw new UsageError("query runs read-only SQL: a PRAGMA statement is refused (for a table's columns use DESCRIBE or SELECT * FROM pragma_table_info('…'))");
  }
  throw new UsageError(`query runs read-only SQL: a ${keyword} statement is refused ${REFUSED}`);
}

function refuseFunctions(names: string[]): void {
  const bad = names.find((n) => !READ_ONLY_TABLE_FUNCTIONS.has(n.toLowerCase()));
  if (bad) {
    throw new UsageError(`query runs read-only SQL: the table function ${bad} is refused (it is not a read-only function; query allows generators, metadata such as duckdb_tables() and the snapshot's tables and views)`);
  }
}

/** The table functions the statements of `sql` call (lower case), or null when DuckDB cannot serialize them (not SELECTs). */
async function tableFunctionsOf(conn: DuckDBConnection, sql: string): Promise<string[] | null> {
  const r = await conn.runAndReadAll('SELECT json_serialize_sql($sql::VARCHAR) AS tree', { sql });
  const tree = JSON.parse(String(r.getRowObjects()[0]!.tree)) as { error?: boolean };
  if (tree.error !== false) return null;
  const names: string[] = [];
  collect(tree, names);
  return names;
}

/** Every TABLE_FUNCTION node's function name, anywhere in the serialized tree. */
function collect(node: unknown, into: string[]): void {
  if (Array.isArray(node)) {
    for (const n of node) collect(n, into);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as { type?: unknown; function?: { function_name?: unknown } };
  if (o.type === 'TABLE_FUNCTION') into.push(String(o.function?.function_name ?? '').toLowerCase());
  for (const v of Object.values(o)) collect(v, into);
}
