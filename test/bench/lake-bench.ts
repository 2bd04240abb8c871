// The lake's export figures of one size of `npm run bench` (issue 35): after the full sync, a full
// export of the read snapshot to a local lake (as `export-parquet --out DIR` does: Parquet files
// and Iceberg metadata); then one sync with a little new data (the sandbox's live arrivals turned
// on for that run) and the incremental export after it, which must rewrite only the changed
// partitions' files and write one Iceberg manifest per changed table.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { systemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import type { ExportSummary } from '../../src/outputs/lake/export-summary.js';
import { openReader } from '../../src/sync/publish/open-reader.js';
import type { ChildSync } from './child-sync.js';

export interface LakeExportFigures {
  ms: number;
  /** Bytes of the data files written (the export's own count). */
  bytes: number;
  /** Data files written, and the lake's data files after. */
  files: number;
  totalFiles: number;
  /** Iceberg manifests (`<table>/metadata/<uuid>-m<n>.avro`) the export wrote. */
  manifests: number;
  tablesWritten: string[];
}

export interface LakeBench {
  full: LakeExportFigures;
  incremental: LakeExportFigures & { newTurns: number };
}

export async function lakeBench(a: {
  sandboxUrl: string; warehouse: string; readPath: string; lakeDir: string; sync: () => Promise<ChildSync>;
}): Promise<LakeBench> {
  const full = await timedExport(a);
  await setLive(a.sandboxUrl, true);
  let newTurns: number;
  try {
    const run = await a.sync();
    if (run.exitCode !== 0) throw new Error(`the sync with new data before the incremental lake export exited ${run.exitCode}`);
    newTurns = run.runs.reduce((n, r) => n + r.upserted, 0);
  } finally {
    await setLive(a.sandboxUrl, false);
  }
  return { full, incremental: { ...(await timedExport(a)), newTurns } };
}

async function timedExport(a: { warehouse: string; readPath: string; lakeDir: string }): Promise<LakeExportFigures> {
  const before = new Set(lakeFiles(a.lakeDir));
  const wh = await openReader({ warehouse: a.warehouse, readPath: a.readPath });
  let s: ExportSummary;
  try {
    s = await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: LAKE_TABLES }, { outDir: a.lakeDir });
  } finally {
    wh.close();
  }
  const after = lakeFiles(a.lakeDir);
  return {
    ms: s.durationMs, bytes: s.bytes, files: s.files.written, totalFiles: after.filter((f) => f.endsWith('.parquet')).length,
    manifests: after.filter((f) => !before.has(f) && /\/metadata\/[^/]+-m\d+\.avro$/.test(f)).length, tablesWritten: s.tablesWritten,
  };
}

/** Every file of the lake, relative, '/'-separated. */
function lakeFiles(dir: string): string[] {
  try {
    return (readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split('\\').join('/')).filter((f) => statSync(join(dir, f)).isFile());
  } catch {
    return [];
  }
}

/** The sandbox's live arrivals (its loopback control route): on for one run, off again after. */
async function setLive(url: string, live: boolean): Promise<void> {
  const res = await fetch(`${url}/__sandbox/configure`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ live }), signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`the sandbox refused live=${live}: HTTP ${res.status}`);
}
