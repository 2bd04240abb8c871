// Runs a SQL text of one or more statements with bound values: DuckDB prepares one statement at a
// time, so a file of several (a pipeline's merge.sql) cannot be run with `conn.run(sql, values)`.
// DuckDB's own parser splits the text (`extractStatements`: a `;` in a comment or a string literal is
// its business, as when it runs the file whole), and each statement is prepared when the ones before
// it have run (it may read the temp tables they made), then run with the values it names (`$name`).
// No value is ever spliced into the text: what a value holds (a quote, `$now`, `;`) reaches DuckDB
// as data. Statements run on `conn` as they come: inside the caller's transaction when there is one.
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBValue } from '@duckdb/node-api';
import { FatalError } from '../core/errors.js';

export type BoundValues = Readonly<Record<string, DuckDBValue>>;

/** What a caller adds around each statement (k: its 1-based number). */
export interface StatementHooks {
  /** Runs the k-th statement: e.g. again at a larger memory limit when it ran out (the topic step's tail). */
  each?: (k: number, run: () => Promise<void>) => Promise<void>;
  /** Called when the k-th statement has run: a caller timing each statement (the topic step's phases) marks there. */
  afterEach?: (k: number) => void;
}

/**
 * Runs every statement of `sql` in order, each with the values of `values` it names (others are
 * not bound: a statement that names none runs as is). A `$name` with no value in `values` is a
 * FatalError naming it, before that statement runs.
 */
export async function runStatements(conn: DuckDBConnection, sql: string, values: BoundValues = {}, hooks: StatementHooks = {}): Promise<void> {
  const statements = await conn.extractStatements(sql);
  const each = hooks.each ?? ((_k, run) => run());
  for (let i = 0; i < statements.count; i++) {
    // Prepared once: an extracted statement cannot be prepared twice ("Failed to prepare extracted
    // statement"), and `each` may run it again (the topic step, at the whole limit after it ran out).
    // Destroyed once it has served, not when collected: until then DuckDB keeps what its last run
    // built (a MERGE's hash table, 4-8 MiB), and a sync merging page by page ran out of memory.
    const prepared = await statements.prepare(i);
    try {
      prepared.bind(valuesNamedBy(prepared, values));
      await each(i + 1, () => prepared.run().then(() => undefined));
    } finally {
      prepared.destroySync();
    }
    hooks.afterEach?.(i + 1);
  }
}

/** The values a prepared statement names, by name (DuckDB numbers its parameters from 1). */
function valuesNamedBy(prepared: DuckDBPreparedStatement, values: BoundValues): Record<string, DuckDBValue> {
  const named: Record<string, DuckDBValue> = {};
  for (let i = 1; i <= prepared.parameterCount; i++) {
    const name = prepared.parameterName(i);
    if (!Object.hasOwn(values, name)) throw new FatalError(`SQL names $${name}, which is not among the values given (${Object.keys(values).join(', ') || 'none'})`);
    named[name] = values[name] as DuckDBValue;
  }
  return named;
}
