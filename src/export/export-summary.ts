// What an export did, for the CLI's summary line, the logs and the scheduler.

export interface ExportSummary {
  outDir: string;
  full: boolean;
  partitions: {
    /** Partitions in scope after the run (in the warehouse, filtered by --project). */
    total: number;
    written: number;
    skipped: number;
    removed: number;
  };
  /** Small tables (sync_runs, quarantine) rewritten this run. */
  tablesWritten: string[];
  /** Rows written this run, per lake table. */
  rows: { conversations: number; sources: number; sync_runs: number; quarantine: number };
  files: { written: number; removed: number; tempRemoved: number };
  /** Size of the files written this run. */
  bytes: number;
  durationMs: number;
}

export function emptySummary(outDir: string, full: boolean): ExportSummary {
  return {
    outDir, full,
    partitions: { total: 0, written: 0, skipped: 0, removed: 0 },
    tablesWritten: [],
    rows: { conversations: 0, sources: 0, sync_runs: 0, quarantine: 0 },
    files: { written: 0, removed: 0, tempRemoved: 0 },
    bytes: 0,
    durationMs: 0,
  };
}

/** One line, e.g. `lake /x: 2 partitions written, 178 unchanged, 0 removed; 1 table; 512 rows, 40.1 kB in 1.2s`. */
export function formatExportSummary(s: ExportSummary): string {
  const p = s.partitions;
  const rows = s.rows.conversations + s.rows.sources + s.rows.sync_runs + s.rows.quarantine;
  const tables = s.tablesWritten.length ? s.tablesWritten.join(', ') : 'no other tables';
  return `lake ${s.outDir}: ${p.written} partition(s) written, ${p.skipped} unchanged, ${p.removed} removed`
    + `${s.full ? ' (--full)' : ''}; ${tables} rewritten; ${rows} rows, ${formatBytes(s.bytes)} in ${formatSeconds(s.durationMs)}`;
}

export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}
