// What an export did, for the CLI's summary line, the logs and the scheduler.

export interface ExportSummary {
  /** The lake: a directory, or s3://bucket/prefix. */
  outDir: string;
  full: boolean;
  partitions: {
    /** Files in scope after the run (every declared table; partitioned ones filtered by --project). */
    total: number;
    written: number;
    skipped: number;
    removed: number;
  };
  /** Tables with at least one file rewritten this run. */
  tablesWritten: string[];
  /** Rows written this run, per lake table (tables with no file written are absent). */
  rows: Record<string, number>;
  files: { written: number; removed: number; tempRemoved: number };
  /** Size of the files written this run. */
  bytes: number;
  durationMs: number;
  /** Tables that got a new Iceberg snapshot this run, with its operation (append, overwrite, delete). */
  iceberg?: { snapshots: Record<string, string> };
}

export function emptySummary(outDir: string, full: boolean): ExportSummary {
  return {
    outDir, full,
    partitions: { total: 0, written: 0, skipped: 0, removed: 0 },
    tablesWritten: [],
    rows: {},
    files: { written: 0, removed: 0, tempRemoved: 0 },
    bytes: 0,
    durationMs: 0,
  };
}

/** One line, e.g. `lake /x: 2 partition(s) written, 178 unchanged, 0 removed; conversations, sync_runs rewritten; 512 rows, 40.1 kB in 1.2s`. */
export function formatExportSummary(s: ExportSummary): string {
  const p = s.partitions;
  const rows = Object.values(s.rows).reduce((a, b) => a + b, 0);
  const tables = s.tablesWritten.length ? s.tablesWritten.join(', ') : 'no tables';
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
