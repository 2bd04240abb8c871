// The published read snapshot (design: Readers): BI tools, notebooks, `docs-etl query` and the
// report open this file, never the writer's. Publishing checkpoints the warehouse (so its file
// alone is complete), copies it next to the target under a random temporary name (a reflink where
// the file system supports it) and renames it over the target: a reader that has the old snapshot
// open keeps reading the old file undisturbed, one that opens it next sees the new one, and no
// reader ever sees a half-written file. Only the writer process publishes, between merges.
import { constants, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { commitFile, tempPathFor } from '../../core/atomic-file.js';

export interface Published {
  path: string;
  /** Bytes the publish wrote: the whole copy, or the catalog plus the new Parquet files. */
  bytes: number;
  ms: number;
  /** Catalog publishes (src/sync/publish/read-surface.ts): Parquet files written, deleted, named now, retired. */
  files?: { written: number; deleted: number; current: number; retired: number };
  /**
   * Catalog publishes: views the new catalog created (every table's and sql/views', when written
   * anew) or replaced (those whose files changed, when built from the previous catalog).
   */
  views?: number;
  /** Lines for the log: e.g. a previous catalog held read-write by a reader (src/sync/publish/previous-catalog.ts). */
  warnings?: string[];
}

/** Where readers find the snapshot of a warehouse: state/warehouse.duckdb → state/read/warehouse.duckdb. */
export function defaultReadPath(warehouse: string): string {
  return join(dirname(warehouse), 'read', basename(warehouse));
}

/** The read snapshot's path: DOCS_ETL_READ_PATH, else the config file's `readPath`, else the default. */
export function readPathFor(warehouse: string, env: NodeJS.ProcessEnv, fromConfig?: string): string {
  return (env.DOCS_ETL_READ_PATH || undefined) ?? fromConfig ?? defaultReadPath(warehouse);
}

export async function publishSnapshot(conn: DuckDBConnection, warehouse: string, target: string): Promise<Published> {
  const started = performance.now();
  await conn.run('CHECKPOINT');
  mkdirSync(dirname(target), { recursive: true });
  sweepStaleTemps(target);
  const tmp = tempPathFor(target);
  try {
    await copyFile(warehouse, tmp, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  commitFile(tmp, target);
  return { path: target, bytes: statSync(target).size, ms: performance.now() - started };
}

/**
 * Temporaries of the read path left by a publish that was killed: `.NAME.<12 hex>.tmp` (a copy of
 * the warehouse, atomic-file.ts's name) and `.NAME.<10 hex>.tmp` (a catalog, read-surface.ts's
 * token), each with DuckDB's `.wal` beside it. Both surfaces sweep both (a surface may have been
 * switched). Only the writer publishes, one publish at a time (the writer lock, the writer's
 * queue), so any such file present when a publish starts is stale; nothing else is touched.
 */
export function sweepStaleTemps(target: string): number {
  const prefix = `.${basename(target)}.`;
  let swept = 0;
  for (const name of readdirSync(dirname(target))) {
    if (name.startsWith(prefix) && /^(?:[0-9a-f]{10}|[0-9a-f]{12})\.tmp(?:\.wal)?$/.test(name.slice(prefix.length))) {
      rmSync(join(dirname(target), name), { force: true });
      swept++;
    }
  }
  return swept;
}
