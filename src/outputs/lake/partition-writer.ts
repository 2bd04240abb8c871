// Writing one lake file: DuckDB's Parquet writer COPYs the partition's rows to a local staging
// path (beside the final file on a local disk, a staging directory for object storage), then the
// storage publishes it under its key. The COPY is the one Parquet writer's (src/parquet/partition-copy.ts).
import { rmSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { LakeTable } from '../../sync/pipeline/lake-table.js';
import { partitionKey, type LakePartition } from './lake-layout.js';
import type { LakeStorage } from './lake-storage.js';
import type { FileEntry } from './manifest.js';
import { copyPartition } from '../../parquet/partition-copy.js';
import { partitionRows, type FileSignature } from './signatures.js';

/** Unique per file within a run; lower-case so keys match DATA_FILE_RE. */
export type KeyNamer = () => string;

/** The Iceberg side (iceberg/iceberg-lake.ts): the field-ids COPY option, and the written file's metrics. */
export interface IcebergFileHooks {
  option: string;
  stats(file: string): Promise<FileEntry['iceberg']>;
}

export async function writeFile(
  conn: DuckDBConnection, storage: LakeStorage, t: LakeTable, p: FileSignature, token: string, unique: KeyNamer, now: Date,
  iceberg?: IcebergFileHooks,
): Promise<FileEntry> {
  const key = partitionKey(t.name, p, storage.replacesInPlace ? null : unique());
  const staged = storage.stagingPath(key, token);
  let rows: number;
  let stats: FileEntry['iceberg'];
  try {
    rows = await copyPartition(conn, partitionRows(t, p, iceberg?.option), staged);
    stats = await iceberg?.stats(staged);
  } catch (err) {
    rmSync(staged, { force: true });
    throw err;
  }
  const bytes = await storage.put(staged, key);
  return {
    table: t.name, partition: hivePartition(p), key, rows, bytes, signature: p.signature, exportedAt: now.toISOString(),
    ...(stats ? { iceberg: stats } : {}),
  };
}

export function hivePartition(p: LakePartition): FileEntry['partition'] {
  return { ...(p.projectId !== null ? { project_id: p.projectId } : {}), ...(p.date !== null ? { date: p.date } : {}) };
}
