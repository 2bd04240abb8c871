// The Iceberg side of a lake export (docs/lake.md "Iceberg tables"): every declared table is also
// an Apache Iceberg v2 table at <lake>/<table>/ (metadata under metadata/), whose data files are
// the export's own Parquet files. The exporter (export-lake.ts) calls, under its lock and inside
// its read transaction:
//   open        reads each table's current metadata and resolves its schema (stable field ids),
//               partition spec and sort order;
//   copyOption  the COPY option that writes those field ids into each Parquet file;
//   stats       a written file's column metrics, kept in its manifest entry;
//   commit      after the lake manifest is written: one snapshot per table whose files changed;
//   deletable   which replaced files may go now (not those a snapshot within readGrace names).
// The lake manifest (_docs_etl/manifest.json) stays the exporter's incremental state; each table's
// snapshot is derived from it on every export, so a kill between the two is repaired by the next run.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../../../core/logger.js';
import type { LakeTable } from '../../../sync/pipeline/lake-table.js';
import { sqlFile } from '../../../warehouse/sql-files.js';
import type { FileEntry } from '../manifest.js';
import { commitTable } from './commit-table.js';
import type { IcebergFileHooks } from '../partition-writer.js';
import { readFileStats } from './file-stats.js';
import { openIcebergIO } from './iceberg-io.js';
import { resolveSortOrder, type TableDesign } from './metadata-builder.js';
import { resolveSpec } from './partition-spec.js';
import { referencedFiles } from './remove-unreferenced.js';
import { describeSelect, fieldIdsOption, resolveSchema } from './table-schema.js';
import { readTableState, type TableState } from './table-state.js';

export const DEFAULT_LAKE_READ_GRACE_MS = 24 * 3_600_000;

export interface IcebergCommitSummary {
  /** Tables that got a new snapshot, with its operation. */
  snapshots: Record<string, string>;
}

export interface IcebergLake {
  /** The field-ids COPY option and the metrics of a written file of `t` (partition-writer.ts). */
  fileHooks(conn: DuckDBConnection, t: LakeTable): IcebergFileHooks;
  /** `outOfScope`: --project, for a table not rewritten whole, a project this run did not consider. */
  commit(entries: readonly FileEntry[], nowMs: number, outOfScope?: (table: string, projectId: string) => boolean): Promise<IcebergCommitSummary>;
  deletable(keys: readonly string[]): Promise<string[]>;
  close(): void;
}

const selectOf = (t: LakeTable) => sqlFile(t.select).trim().replace(/;$/, '');

export async function openIcebergLake(a: {
  conn: DuckDBConnection; tables: readonly LakeTable[]; location: string; env: NodeJS.ProcessEnv; logger: Logger; readGraceMs?: number;
}): Promise<IcebergLake> {
  const io = await openIcebergIO(a.location, a.env);
  const graceMs = a.readGraceMs ?? DEFAULT_LAKE_READ_GRACE_MS;
  const tables = new Map<string, { t: LakeTable; state: TableState; design: TableDesign }>();
  try {
    for (const t of a.tables) {
      const state = await readTableState(io, t.name);
      const prev = state.metadata;
      const { schema, lastColumnId } = resolveSchema(t.name, await describeSelect(a.conn, selectOf(t)), prev);
      const schemas = prev?.schemas.some((s) => s['schema-id'] === schema['schema-id']) ? prev.schemas : [...(prev?.schemas ?? []), schema];
      const { spec, specs, lastPartitionId } = resolveSpec(t, schema, prev);
      tables.set(t.name, { t, state, design: { schema, schemas, lastColumnId, spec, specs, lastPartitionId, ...resolveSortOrder(t, schema, prev) } });
    }
  } catch (err) {
    io.close();
    throw err;
  }
  const design = (t: LakeTable) => tables.get(t.name)!.design;
  /** Data keys a retained snapshot names, per table (read on demand). */
  const retained = new Map<string, Set<string>>();
  return {
    fileHooks: (conn, t) => ({ option: fieldIdsOption(design(t).schema), stats: (file) => readFileStats(conn, design(t).schema, file) }),
    commit: async (entries, nowMs, outOfScope) => {
      const summary: IcebergCommitSummary = { snapshots: {} };
      for (const { t, state, design: d } of tables.values()) {
        const files = entries.filter((e) => e.table === t.name);
        const r = await commitTable({ io, t, design: d, state, files, nowMs, graceMs, ...(outOfScope ? { outOfScope: (p: string) => outOfScope(t.name, p) } : {}) });
        if (r.operation) summary.snapshots[t.name] = r.operation;
        if (r.committed) tables.get(t.name)!.state = await readTableState(io, t.name);
        if (r.committed) a.logger.debug({ table: t.name, version: r.version, operation: r.operation }, 'iceberg table committed');
      }
      return summary;
    },
    deletable: async (keys) => {
      const out: string[] = [];
      for (const key of keys) {
        const entry = tables.get(key.split('/')[0]!);
        if (!entry?.state.metadata) {
          out.push(key);
          continue;
        }
        let set = retained.get(entry.t.name);
        if (!set) {
          set = (await referencedFiles(io, entry.t.name, entry.state.metadata)).data;
          retained.set(entry.t.name, set);
        }
        if (!set.has(key)) out.push(key);
      }
      return out;
    },
    close: () => io.close(),
  };
}

/** Runs `fn` with the lake's Iceberg side open (export-lake.ts), closing it after. */
export async function withIcebergLake<T>(
  deps: { conn: DuckDBConnection; tables: readonly LakeTable[]; env?: NodeJS.ProcessEnv; logger: Logger; readGraceMs?: number },
  location: string, fn: (lake: IcebergLake) => Promise<T>,
): Promise<T> {
  const lake = await openIcebergLake({ ...deps, location, env: deps.env ?? process.env });
  try {
    return await fn(lake);
  } finally {
    lake.close();
  }
}
