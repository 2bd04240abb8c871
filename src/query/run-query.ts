// Read-only SQL for `docs-etl query`: every statement is checked by its type before it runs, so
// only reads (and session settings) reach the snapshot; a write, COPY, ATTACH or INSTALL is refused.
import type { DuckDBConnection } from '@duckdb/node-api';
import { StatementType } from '@duckdb/node-api';
import { UsageError, messageOf } from '../core/errors.js';

export interface QueryResult {
  columns: string[];
  /** Rows as JSON-safe values (big integers and decimals as strings, times as ISO text). */
  rows: Record<string, unknown>[];
}

const READ_ONLY = new Set<StatementType>([
  StatementType.SELECT, StatementType.EXPLAIN, StatementType.SET, StatementType.VARIABLE_SET, StatementType.CALL,
]);

/** Runs each statement of `sql` in order; returns the result of each that returns rows. */
export async function runReadOnly(conn: DuckDBConnection, sql: string): Promise<QueryResult[]> {
  const statements = await sqlError(() => conn.extractStatements(sql));
  if (statements.count === 0) throw new UsageError('no SQL statement given');
  const prepared = [];
  for (let i = 0; i < statements.count; i++) {
    const p = await sqlError(() => statements.prepare(i).catch((err: unknown) => {
      // The read catalog's Parquet-backed tables are views: a write to one fails to bind instead.
      const verb = /Can only (delete|update|insert)/i.exec(messageOf(err))?.[1];
      if (verb) throw new UsageError(`query runs read-only SQL: a ${verb.toUpperCase()} statement is refused (the warehouse is written only by docs-etl sync)`);
      throw err;
    }));
    if (!READ_ONLY.has(p.statementType)) {
      throw new UsageError(`query runs read-only SQL: a ${StatementType[p.statementType] ?? 'writing'} statement is refused (the warehouse is written only by docs-etl sync)`);
    }
    prepared.push(p);
  }
  const out: QueryResult[] = [];
  for (const p of prepared) {
    const r = await sqlError(() => p.runAndReadAll());
    const columns = r.columnNames();
    if (columns.length) out.push({ columns, rows: r.getRowObjectsJson() as Record<string, unknown>[] });
  }
  return out;
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
