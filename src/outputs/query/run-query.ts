// Read-only SQL for `docs-etl query`: every statement's table functions are checked against an
// allow-list of read-only ones before anything is prepared (read-only-functions.ts), then every
// statement by its type, so only reads (and session settings) reach the snapshot; a write, COPY,
// ATTACH, INSTALL or a logging/configuration CALL is refused.
import type { DuckDBConnection, DuckDBExtractedStatements, DuckDBValueConverter, Json } from '@duckdb/node-api';
import { JsonDuckDBValueConverter, StatementType } from '@duckdb/node-api';
import { UsageError, messageOf } from '../../core/errors.js';
import { checkReadOnlyFunctions } from './read-only-functions.js';

export interface QueryResult {
  columns: string[];
  /** Rows as JSON-safe values (big integers and decimals as strings, times as ISO text). */
  rows: Record<string, unknown>[];
}

const READ_ONLY = new Set<StatementType>([
  StatementType.SELECT, StatementType.EXPLAIN, StatementType.SET, StatementType.VARIABLE_SET, StatementType.CALL,
]);

/** Where the rows of one statement go, as they stream out of DuckDB. */
export interface ResultSink {
  /** One chunk's rows; the next chunk is fetched once the returned promise settles (backpressure). */
  rows(rows: Record<string, unknown>[]): Promise<void> | void;
  end(): Promise<void> | void;
  /** How DuckDB values become row values (default: DuckDB's JSON converter, times as DuckDB text). */
  converter?: DuckDBValueConverter<Json>;
}

/**
 * Runs each statement of `sql` in order; the rows of each that returns rows stream to the sink
 * `open(columns)` gives for it. All statements are checked before the first runs; each binds after the ones before it.
 */
export async function runReadOnly(conn: DuckDBConnection, sql: string, open: (columns: string[]) => ResultSink): Promise<void> {
  const statements = await sqlError(() => conn.extractStatements(sql));
  if (statements.count === 0) throw new UsageError('no SQL statement given');
  await sqlError(() => checkReadOnlyFunctions(conn, sql, statements.count));
  // Every statement is checked before the first runs; each is prepared again just before it runs,
  // so it binds after the statements before it (`SET VARIABLE x = 41; SELECT getvariable('x')`).
  // (An extracted statement is prepared once: the run extracts them again.)
  // Prepared statements are destroyed as soon as they have served (DuckDB keeps what a statement
  // holds until then), as @duckdb/node-api's own `stream()` does.
  for (let i = 0; i < statements.count; i++) (await prepareReadOnly(statements, i)).destroySync();
  const again = await sqlError(() => conn.extractStatements(sql));
  for (let i = 0; i < again.count; i++) {
    const p = await prepareReadOnly(again, i);
    const r = await sqlError(() => p.stream()).finally(() => p.destroySync());
    const columns = r.columnNames();
    if (!columns.length) {
      while (await r.fetchChunk());
      continue;
    }
    const sink = open(columns);
    // Chunk by chunk (about 2,048 rows): the result never sits whole in memory, whatever its size.
    for (;;) {
      const chunk = await sqlError(() => r.fetchChunk());
      if (!chunk || chunk.rowCount === 0) break;
      const rows = chunk.convertRows(sink.converter ?? JsonDuckDBValueConverter).map((values) => Object.fromEntries(columns.map((c, i) => [c, values[i]])));
      await sink.rows(rows);
    }
    await sink.end();
  }
}

/** Statement `i` prepared, or refused with one line when it is not a read (or a session setting). */
async function prepareReadOnly(statements: DuckDBExtractedStatements, i: number) {
  const p = await sqlError(() => statements.prepare(i).catch((err: unknown) => {
    // The read catalog's Parquet-backed tables are views: a write to one fails to bind instead.
    const verb = /Can only (delete|update|insert)/i.exec(messageOf(err))?.[1];
    if (verb) throw new UsageError(`query runs read-only SQL: a ${verb.toUpperCase()} statement is refused (the warehouse is written only by docs-etl sync)`);
    throw err;
  }));
  if (!READ_ONLY.has(p.statementType)) {
    p.destroySync();
    throw new UsageError(`query runs read-only SQL: a ${StatementType[p.statementType] ?? 'writing'} statement is refused (the warehouse is written only by docs-etl sync)`);
  }
  return p;
}

/** DuckDB's own message (its first line) as a usage error: the SQL is what needs fixing. */
async function sqlError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(messageOf(err).split('\n')[0]!);
  }
}
