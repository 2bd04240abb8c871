// Bookkeeping scans: a run's "what changed" checks (the read surface's watermark and day and table
// signatures, the topic step's fingerprint) read long columns of the history and keep nothing but
// a few numbers. DuckDB still caches every block they read in its buffer pool, up to memory_limit,
// so a run that merged nothing had a peak RSS that grew with the warehouse (bench, steady run:
// 193 MB at 200k turns, 261 MB at 4M, the difference being the pool those scans filled). They run
// under a small pool instead: memory_limit is lowered to SCAN_MEMORY_LIMIT for the scan (DuckDB
// evicts what it holds above that) and put back after, so what they cache no longer grows with
// the history. Their time still does (one column scan: tens of ms at 4M turns).
// Contract: `fn` only reads (a streaming aggregate over few groups); one that needs more than the
// small pool runs once more at the configured limit, so the cap never makes a run fail.
// memory_limit is the DuckDB instance's, not the connection's: callers run on the writer's
// connection inside the writer's queue (one statement at a time), so no merge runs under the
// small pool; a planning read on another connection at that moment reads a few small tables.
import type { DuckDBConnection } from '@duckdb/node-api';
import { memorySizeBytes } from '../../core/memory-size.js';
import { isOutOfMemory } from './out-of-memory.js';

/** The pool bookkeeping scans run under (measured at 4M turns: 16MB scans as fast as 128MB). */
export const SCAN_MEMORY_LIMIT = '16MB';

export async function withScanMemory<T>(conn: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  const current = String((await conn.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS()[0]!.m);
  const bytes = memorySizeBytes(current);
  // Already that small (or a form this cannot compare): nothing to lower.
  if (bytes === null || bytes <= memorySizeBytes(SCAN_MEMORY_LIMIT)!) return fn();
  await conn.run(`SET memory_limit = '${SCAN_MEMORY_LIMIT}'`);
  try {
    return await fn();
  } catch (err) {
    if (!isOutOfMemory(err)) throw err;
  } finally {
    await conn.run(`SET memory_limit = '${current}'`);
  }
  // It needed more than the small pool: once more, at the limit just put back.
  return fn();
}
