// The warehouse's one writing connection, used by one task at a time: a merge transaction and a
// run's bookkeeping (sync_runs rows) never interleave on it, and DuckDB never sees two writers
// conflicting on the same row.
import type { DuckDBConnection } from '@duckdb/node-api';
import pLimit from 'p-limit';

export class Writer {
  private readonly one = pLimit(1);

  constructor(readonly conn: DuckDBConnection) {}

  run<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.one(() => fn(this.conn));
  }
}
