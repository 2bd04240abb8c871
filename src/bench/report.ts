// What `npm run bench` prints: a human table, then, as its LAST line, one JSON object.
import { formatTable } from '../cli/format.js';
import type { BudgetResult } from './budget-utilization.js';
import type { Ceiling } from './duckdb-ceiling.js';
import type { ViewTiming } from './view-timings.js';

export interface BenchReport {
  n: number;
  syncMode: 'child' | 'in-process';
  /** n / wall time of the sync (in a child process: spawn to exit, node start-up included). */
  rowsPerS: number;
  /** n / runSync's own time (warehouse open to close). */
  rowsPerSInProcess: number;
  syncWallS: number;
  syncS: number;
  ceiling: Ceiling;
  peakRssMb: number;
  sampledPeakRssMb: number;
  requests: number;
  idealRequests: number;
  warehouseMb: number;
  views: ViewTiming[];
  budget: BudgetResult | null;
}

const TARGET = { ratio: 0.5, rssMb: 250, utilization: 0.95 };
const r2 = (x: number) => Math.round(x * 100) / 100;
const r0 = (x: number) => Math.round(x);
const r3 = (x: number) => Math.round(x * 1000) / 1000;

export function benchJson(b: BenchReport): Record<string, unknown> {
  const ratio = b.rowsPerS / b.ceiling.rowsPerS;
  const budget = b.budget && {
    rate_limit: b.budget.rateLimit, seconds: b.budget.durationS, processes: b.budget.processes, requests: b.budget.requests,
    allowed: b.budget.allowed, utilization: r3(b.budget.utilization), http_429: b.budget.http429,
    max_in_window: b.budget.maxInWindow, per_window: b.budget.perWindow, rows: b.budget.rows,
  };
  return {
    n: b.n,
    rows_per_s: r0(b.rowsPerS),
    rows_per_s_in_process: r0(b.rowsPerSInProcess),
    duckdb_rows_per_s: r0(b.ceiling.rowsPerS),
    ratio_vs_duckdb: r3(ratio),
    ratio_in_process_vs_duckdb: r3(b.rowsPerSInProcess / b.ceiling.rowsPerS),
    peak_rss_mb: r0(b.peakRssMb),
    requests: b.requests,
    ideal_requests: b.idealRequests,
    warehouse_mb: r2(b.warehouseMb),
    sync_mode: b.syncMode,
    sync_wall_s: r2(b.syncWallS),
    sync_s: r2(b.syncS),
    duckdb_s: r2(b.ceiling.ms / 1000),
    views_ms: Object.fromEntries(b.views.map((v) => [v.view, r0(v.warmMs)])),
    views_cold_ms: Object.fromEntries(b.views.map((v) => [v.view, r0(v.coldMs)])),
    budget,
    targets: {
      ratio_vs_duckdb: ratio >= TARGET.ratio,
      peak_rss_mb: b.peakRssMb <= TARGET.rssMb,
      requests: b.requests === b.idealRequests,
      budget: b.budget ? b.budget.utilization >= TARGET.utilization && b.budget.http429 === 0 && b.budget.maxInWindow <= b.budget.limit : null,
    },
  };
}

export function humanReport(b: BenchReport): string {
  const j = benchJson(b) as { targets: Record<string, boolean | null>; ratio_vs_duckdb: number };
  const mark = (ok: boolean | null) => (ok === null ? 'skipped' : ok ? 'met' : 'MISSED');
  const n = (x: number) => r0(x).toLocaleString('en-US');
  const rows = [
    { measure: `sync of ${n(b.n)} turns (${b.syncMode}), wall`, value: `${r2(b.syncWallS)} s`, target: '' },
    { measure: 'throughput, wall (rows_per_s)', value: `${n(b.rowsPerS)} rows/s`, target: '' },
    { measure: 'throughput, runSync only', value: `${n(b.rowsPerSInProcess)} rows/s`, target: '' },
    { measure: 'DuckDB read_json ceiling, same pages', value: `${n(b.ceiling.rowsPerS)} rows/s (${r2(b.ceiling.ms / 1000)} s)`, target: '' },
    { measure: 'ratio vs DuckDB (wall)', value: String(j.ratio_vs_duckdb), target: `>= ${TARGET.ratio}: ${mark(j.targets.ratio_vs_duckdb!)}` },
    { measure: 'peak RSS of the sync process (VmHWM)', value: `${n(b.peakRssMb)} MB`, target: `<= ${TARGET.rssMb} MB: ${mark(j.targets.peak_rss_mb!)}` },
    { measure: 'requests', value: `${b.requests} (ideal ${b.idealRequests})`, target: `= ideal: ${mark(j.targets.requests!)}` },
    { measure: 'warehouse size', value: `${r2(b.warehouseMb)} MB`, target: '' },
    ...b.views.map((v) => ({ measure: `view ${v.view} (${n(v.rows)} rows)`, value: `${r0(v.warmMs)} ms (cold ${r0(v.coldMs)} ms)`, target: '' })),
  ];
  if (b.budget) {
    const u = b.budget;
    rows.push({
      measure: `budget ${u.rateLimit} for ${u.durationS} s (${u.processes} process${u.processes > 1 ? 'es' : ''})`,
      value: `${u.requests}/${u.allowed} = ${r2(u.utilization * 100)}%, ${u.http429} x 429`,
      target: `>= ${TARGET.utilization * 100}%, no 429: ${mark(j.targets.budget!)}`,
    }, {
      measure: 'budget: requests per window',
      value: `${u.perWindow.join(' ')} (max ${u.maxInWindow} in any window)`,
      target: `<= ${u.limit}`,
    });
  }
  return formatTable(rows);
}
