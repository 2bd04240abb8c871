// How every read-only command (status, query, report, export-parquet) opens the data: the published
// read snapshot, which a running sync never holds; before the first publish, the warehouse itself,
// read-only (a running sync then holds it, and the message says so).
import { existsSync } from 'node:fs';
import { FatalError } from '../core/errors.js';
import { openWarehouse, type Warehouse } from '../load/warehouse.js';
import { defaultReadPath } from './snapshot.js';

export interface ReaderTarget {
  warehouse: string;
  /** Default: beside the warehouse (state/read/warehouse.duckdb). */
  readPath?: string;
}

export interface Reader extends Warehouse {
  /** True when this is the published snapshot (false: the writer's file, before any publish). */
  snapshot: boolean;
}

export async function openReader(t: ReaderTarget): Promise<Reader> {
  const readPath = t.readPath ?? defaultReadPath(t.warehouse);
  if (existsSync(readPath)) return { ...(await openWarehouse(readPath, { readOnly: true })), snapshot: true };
  if (!existsSync(t.warehouse)) {
    throw new FatalError(`warehouse ${t.warehouse} does not exist yet: run \`docs-etl sync\` first`);
  }
  return { ...(await openWarehouse(t.warehouse, { readOnly: true, readPath })), snapshot: false };
}
