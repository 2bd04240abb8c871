// Running one step of the writer under a smaller DuckDB pool than memory_limit, and the pool the
// heavy steps use (the bookkeeping scans' pool is scan-memory.ts's). memory_limit is the DuckDB
// instance's, not the connection's: callers run on the writer's connection inside the writer's
// queue (one statement at a time), so nothing else of the writer runs under the smaller pool; a
// planning read on another connection at that moment reads a few small tables. Lowering it makes
// DuckDB evict what it holds above the new limit.
// Contract: `fn` is safe to run twice (it only reads, or it is one transaction that rolls back on
// error): one that runs out of memory under the smaller pool runs once more at the limit put back,
// so the smaller pool never makes a step fail that the configured limit lets through.
import type { DuckDBConnection } from '@duckdb/node-api';
import { memorySizeBytes } from '../core/memory-size.js';
import { isOutOfMemory } from './out-of-memory.js';

/** Steps never run under less than this (a merge batch of 1,000-turn pages needs more than 48MB). */
const STEP_POOL_FLOOR_BYTES = 64 * 1024 * 1024;

/**
 * The pool the writer's heavy steps run under (a merge batch, the gap topic step, a publish): half
 * of memory_limit, at least 64 MiB, never above the limit. While they run, DuckDB also allocates
 * outside its pool (the JSON reader's buffers, parsed records, Parquet writers, checkpoints), about
 * in proportion to the pool: so the process's peak follows the pool, not the limit (measured on a
 * full sync of 4M turns as the container runs it: docs/performance.md, sixth round). A step that
 * needs more (pages of tens of MiB) runs again at the whole limit (withMemoryLimit).
 */
export function stepMemoryLimit(memoryLimit: string): string | null {
  const bytes = memorySizeBytes(memoryLimit);
  if (bytes === null) return null;
  const pool = Math.max(Math.floor(bytes / 2), STEP_POOL_FLOOR_BYTES);
  return pool >= bytes ? null : `${Math.floor(pool / 1024)}KiB`;
}

/** Runs `fn` with memory_limit lowered to `limit` (null, or a limit not below the current one: as is). */
export async function withMemoryLimit<T>(conn: DuckDBConnection, limit: string | null, fn: () => Promise<T>): Promise<T> {
  const lower = limit === null ? null : memorySizeBytes(limit);
  if (lower === null) return fn();
  const current = String((await conn.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS()[0]!.m);
  const bytes = memorySizeBytes(current);
  // Already that small (or a form this cannot compare): nothing to lower.
  if (bytes === null || bytes <= lower) return fn();
  // DuckDB refuses to lower the limit below what it cannot evict (temp tables, a pinned buffer):
  // the smaller pool only saves memory, so the step then runs at the limit it has.
  if (!(await lowered(conn, limit!))) return fn();
  // Nested (a scan's pool inside a step's): the outer one's limit is the one to put back after.
  const outer = putBack.get(conn);
  putBack.set(conn, current);
  try {
    return await fn();
  } catch (err) {
    if (!isOutOfMemory(err)) throw err;
  } finally {
    if (outer === undefined) putBack.delete(conn);
    else putBack.set(conn, outer);
    await conn.run('SET memory_limit = $limit', { limit: current });
  }
  // It needed more than the smaller pool: once more, at the limit just put back.
  return fn();
}

/** The limit withMemoryLimit puts back, per connection, while its `fn` runs under the smaller pool. */
const putBack = new WeakMap<DuckDBConnection, string>();

/**
 * Runs `part`, one statement or phase of a step that runs under withMemoryLimit's smaller pool: one
 * that runs out of memory there runs once more at the limit withMemoryLimit puts back, then the
 * pool is lowered again, so only that part (not the whole step) runs twice. `onRetry` is told
 * before the second run. Outside withMemoryLimit (or at the whole limit already) `part` runs as
 * is. Contract: `part` is safe to run twice and is not inside a transaction (DuckDB aborts the
 * transaction on the error), or is one whole transaction that rolled back.
 */
export async function retryAtWholeLimit<T>(conn: DuckDBConnection, part: () => Promise<T>, onRetry: (err: unknown) => void): Promise<T> {
  const whole = putBack.get(conn);
  try {
    return await part();
  } catch (err) {
    if (whole === undefined || !isOutOfMemory(err)) throw err;
    onRetry(err);
  }
  const pool = String((await conn.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS()[0]!.m);
  await conn.run('SET memory_limit = $limit', { limit: whole });
  try {
    return await part();
  } finally {
    await lowered(conn, pool);
  }
}

/** Lowers memory_limit; false when DuckDB cannot free enough for it (the limit is then unchanged). */
async function lowered(conn: DuckDBConnection, limit: string): Promise<boolean> {
  try {
    await conn.run('SET memory_limit = $limit', { limit });
    return true;
  } catch (err) {
    if (isOutOfMemory(err)) return false;
    throw err;
  }
}
