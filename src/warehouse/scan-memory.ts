// Bookkeeping scans: a run's "what changed" checks (the read surface's watermark and day and table
// signatures, the topic step's fingerprint) read long columns of the history and keep nothing but
// a few numbers. DuckDB still caches every block they read in its buffer pool, up to memory_limit,
// so a run that merged nothing had a peak RSS that grew with the warehouse (bench, steady run:
// 193 MB at 200k turns, 261 MB at 4M, the difference being the pool those scans filled). They run
// under a small pool instead (memory-pool.ts): memory_limit is lowered to SCAN_MEMORY_LIMIT for the
// scan and put back after, so what they cache no longer grows with the history. Their time still
// does (one column scan: tens of ms at 4M turns).
// Contract: `fn` only reads (a streaming aggregate over few groups); one that needs more than the
// small pool runs once more at the configured limit, so the cap never makes a run fail.
import type { DuckDBConnection } from '@duckdb/node-api';
import { withMemoryLimit } from './memory-pool.js';

/** The pool bookkeeping scans run under (measured at 4M turns: 16MB scans as fast as 128MB). */
export const SCAN_MEMORY_LIMIT = '16MB';

export function withScanMemory<T>(conn: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  return withMemoryLimit(conn, SCAN_MEMORY_LIMIT, fn);
}
