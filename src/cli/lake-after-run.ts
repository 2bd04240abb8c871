// The lake that sync and schedule publish (opt-in: --lake, DOCS_ETL_LAKE, config `lake`): after a
// run that got data in (exit 0 or 3), the lake is exported incrementally from the read snapshot the
// run has just published, exactly as `export-parquet --out LAKE` would.
import { LAKE_TABLES } from './lake-tables.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { ExportSummary } from '../outputs/lake/export-summary.js';
import { openReader } from '../sync/publish/open-reader.js';

export async function exportLakeAfterRun(
  deps: { logger: Logger; clock: Clock; env: NodeJS.ProcessEnv; signal?: AbortSignal },
  cfg: { warehouse: string; readPath: string; lake: string; readGraceMs?: number },
): Promise<ExportSummary> {
  // The lake's writer (Iceberg metadata, avsc) is loaded by a run that has a lake to export to.
  const { exportLake, lakeStagingDir } = await import('../outputs/lake/export-lake.js');
  const wh = await openReader({ warehouse: cfg.warehouse, readPath: cfg.readPath });
  try {
    return await exportLake(
      { conn: wh.conn, logger: deps.logger, clock: deps.clock, tables: LAKE_TABLES, env: deps.env, signal: deps.signal, stagingDir: lakeStagingDir(cfg.warehouse), readGraceMs: cfg.readGraceMs },
      { outDir: cfg.lake },
    );
  } finally {
    wh.close();
  }
}
