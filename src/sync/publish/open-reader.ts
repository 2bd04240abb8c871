// How every read-only command (status, query, report, export-parquet, topics, the lake export after
// a run) opens the data: the published read snapshot, which a running sync never holds. Before the
// first publish there is none, and readers do NOT fall back to the writer's file: a reader holding
// it (even read-only) makes a sync starting meanwhile fail on DuckDB's file lock. They get one line
// instead (exit 1); `status` shows what it can without opening it (src/outputs/status/unpublished-status.ts).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { FatalError } from '../../core/errors.js';
import { openWarehouse, type Warehouse } from '../../warehouse/warehouse.js';
import { headerProblem } from '../../warehouse/warehouse-header.js';
import { writerLockHolder } from '../../warehouse/writer-lock.js';
import { defaultReadPath } from './snapshot.js';

export interface ReaderTarget {
  warehouse: string;
  /** Default: beside the warehouse (state/read/warehouse.duckdb). */
  readPath?: string;
}

export interface Reader extends Warehouse {
  /** True when this is the published snapshot (always, since readers never open the writer's file). */
  snapshot: boolean;
}

/** The one line readers print before the first publish (the query reader prints it too). */
export function noSnapshotError(readPath: string): FatalError {
  return new FatalError(`no read snapshot yet: the first sync publishes it (${readPath})`);
}

export async function openReader(t: ReaderTarget): Promise<Reader> {
  const readPath = t.readPath ?? defaultReadPath(t.warehouse);
  if (existsSync(readPath)) return { ...(await openWarehouse(readPath, { readOnly: true })), snapshot: true };
  // A first sync that has taken the writer lock but not created the file yet: it is coming.
  if (!existsSync(t.warehouse) && !writerLockHolder(t.warehouse)) {
    throw new FatalError(`warehouse ${t.warehouse} does not exist yet: run \`docs-etl sync\` first`);
  }
  throwIfDamaged(t.warehouse);
  throw noSnapshotError(readPath);
}

/**
 * Before the first publish, with no sync writing: a warehouse file that cannot be a DuckDB database
 * (checked without opening it) is named as damaged, the line sync gives, not "no snapshot yet".
 */
export function throwIfDamaged(warehouse: string): void {
  if (writerLockHolder(warehouse)) return;
  const problem = headerProblem(warehouse);
  if (problem) throw new FatalError(`warehouse ${resolve(warehouse)} is damaged or not a DuckDB file: ${problem}`);
}
