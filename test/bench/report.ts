// What `npm run bench` prints: a human table, then, as its LAST line, one JSON object with every
// figure and each target met or missed (issues 10, 11, 12).
import { formatTable } from '../../src/cli/format.js';
import type { BudgetResult } from './budget-utilization.js';
import type { LoadResult } from './load-bench.js';

const TARGET = {
  ratio: 0.5, rssMb: 300, rssGrowth: 0.1, publishShare: 0.1, reportMs1M: 5000, utilization: 0.95,
  // Issue 20, largest size against the smallest: the steady run's time and peak RSS, the views
  // through the read path against the native tables.
  steadyRatio: 1.5, steadyRssMb: 256, viewsVsNative: 2,
};
const r2 = (x: number) => Math.round(x * 100) / 100;
const r0 = (x: number) => Math.round(x);
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const mb = (kb: number) => kb / 1024;

function sizeJson(s: LoadResult) {
  const t = s.sync.timing;
  const rowsPerS = s.n / (s.sync.wallMs / 1000);
  const peak = mb(s.sync.peakRssKb ?? s.sync.sampledPeakRssKb);
  return {
    n: s.n,
    rows_per_s: r0(rowsPerS),
    duckdb_rows_per_s: r0(s.ceiling.rowsPerS),
    ratio_vs_duckdb: r3(rowsPerS / s.ceiling.rowsPerS),
    peak_rss_mb: r0(peak),
    requests: s.requests,
    ideal_requests: s.idealRequests,
    ideal_requests_windowed: s.idealWindowed,
    windows: s.sync.runs[0]?.windows.length ?? 0,
    time_s: {
      wall: r2(s.sync.wallMs / 1000), run: r2(s.sync.syncMs / 1000), fetch: r2(t.fetchMs / 1000), validate: r2(t.validateMs / 1000),
      land: r2(t.landMs / 1000), merge_busy: r2(t.mergeMs / 1000), merge_after_fetch: r2(t.drainMs / 1000), publish: r2(t.publishMs / 1000),
      duckdb_read_json: r2(s.ceiling.ms / 1000),
    },
    publish_ms: r0(t.publishMs),
    steady: {
      run_s: r2(s.steady.syncMs / 1000), runs_s: s.steadyRuns.map((x) => r2(x.syncMs / 1000)), publish_ms: r0(s.steady.timing.publishMs), requests: s.steady.runs[0]?.requests ?? 0,
      publish_bytes: s.steady.publishedBytes ?? 0, full_publish_bytes: s.sync.publishedBytes ?? 0,
      publish_share: r3(s.steady.timing.publishMs / s.steady.syncMs), peak_rss_mb: r0(mb(s.steady.peakRssKb ?? s.steady.sampledPeakRssKb)),
    },
    node: s.node,
    container: s.container && { peak_rss_mb: r0(mb(s.container.peakRssKb ?? s.container.sampledPeakRssKb)), wall_s: r2(s.container.wallMs / 1000) },
    bare_node: s.bare && { peak_rss_mb: r0(mb(s.bare.peakRssKb ?? s.bare.sampledPeakRssKb)), wall_s: r2(s.bare.wallMs / 1000) },
    report_ms: r0(s.report.ms),
    report_kb: r0(s.report.bytes / 1024),
    warehouse_mb: r2(s.warehouseMb),
    snapshot_mb: r2(s.snapshotMb),
    read_surface_mb: r2(s.partsMb),
    read_surface_files: s.partsFiles,
    views_ms: Object.fromEntries(s.views.map((v) => [v.view, r0(v.warmMs)])),
    native_views_ms: Object.fromEntries(s.nativeViews.map((v) => [v.view, r0(v.warmMs)])),
    lake: lakeJson(s),
  };
}

/** Issue 35: the lake's full export and the incremental one after a run with a little new data. */
function lakeJson(s: LoadResult) {
  const { full, incremental: inc } = s.lake;
  return {
    full: { s: r2(full.ms / 1000), mb: r2(full.bytes / 1e6), files: full.files, manifests: full.manifests },
    incremental: {
      s: r2(inc.ms / 1000), kb: r0(inc.bytes / 1024), files: inc.files, manifests: inc.manifests, tables_written: inc.tablesWritten.length,
      new_turns: inc.newTurns, lake_files: inc.totalFiles,
    },
  };
}

export function benchJson(sizes: LoadResult[], budget: BudgetResult | null): Record<string, unknown> {
  const rows = sizes.map(sizeJson);
  const small = rows[0];
  const large = rows.at(-1);
  const growth = small && large && large !== small ? large.peak_rss_mb / small.peak_rss_mb - 1 : null;
  const at1M = rows.find((r) => r.n === 1_000_000);
  const issue20 = issue20Figures(rows);
  return {
    sizes: rows,
    rss_growth: growth === null ? null : r3(growth),
    steady_vs_smallest: issue20 && { run_ratio: issue20.runRatio, rss_growth: issue20.rssGrowth, views_vs_native_max: issue20.viewsMax },
    budget: budget && {
      rate_limit: budget.rateLimit, seconds: budget.durationS, processes: budget.processes, requests: budget.requests,
      allowed: budget.allowed, utilization: r3(budget.utilization), http_429: budget.http429, max_in_window: budget.maxInWindow,
      per_window: budget.perWindow, rows: budget.rows,
    },
    targets: {
      ratio_vs_duckdb: rows.every((r) => r.ratio_vs_duckdb >= TARGET.ratio),
      peak_rss_mb: rows.every((r) => r.peak_rss_mb <= TARGET.rssMb),
      peak_rss_mb_container: rows.every((r) => r.container === null) ? null : rows.every((r) => r.container !== null && r.container.peak_rss_mb <= TARGET.rssMb),
      rss_flat: growth === null ? null : growth <= TARGET.rssGrowth,
      requests: rows.every((r) => r.requests === r.ideal_requests),
      requests_windowed: rows.every((r) => r.requests === r.ideal_requests_windowed),
      publish_share_steady: rows.every((r) => r.steady.publish_share <= TARGET.publishShare),
      report_at_1m: at1M ? at1M.report_ms <= TARGET.reportMs1M : null,
      steady_ratio: issue20 ? issue20.runRatio <= TARGET.steadyRatio : null,
      steady_rss: issue20 ? issue20.steadyMaxMb <= TARGET.steadyRssMb && issue20.rssGrowth <= TARGET.rssGrowth : null,
      views_vs_native: issue20 ? issue20.viewsMax <= TARGET.viewsVsNative : null,
      lake_manifest_per_changed_table: rows.every((r) => r.lake.incremental.manifests === r.lake.incremental.tables_written),
      budget: budget ? budget.utilization >= TARGET.utilization && budget.http429 === 0 && budget.maxInWindow <= budget.limit : null,
    },
  };
}

type SizeRow = ReturnType<typeof sizeJson>;

/** The steady run and the views of the largest size against the smallest (null with one size). */
function issue20Figures(rows: SizeRow[]): { runRatio: number; rssGrowth: number; steadyMaxMb: number; viewsMax: number } | null {
  const small = rows[0];
  const large = rows.at(-1);
  if (!small || !large || small === large) return null;
  const ratios = Object.keys(large.views_ms).map((v) => large.views_ms[v]! / Math.max(1, large.native_views_ms[v] ?? 0));
  return {
    runRatio: r2(large.steady.run_s / small.steady.run_s),
    rssGrowth: r3(large.steady.peak_rss_mb / small.steady.peak_rss_mb - 1),
    steadyMaxMb: Math.max(small.steady.peak_rss_mb, large.steady.peak_rss_mb),
    viewsMax: r2(Math.max(0, ...ratios)),
  };
}

export function humanReport(sizes: LoadResult[], budget: BudgetResult | null): string {
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const n = (x: number) => r0(x).toLocaleString('en-US');
  const rows: { measure: string; value: string; target: string }[] = [];
  for (const j of sizes.map(sizeJson)) {
    const at = `${n(j.n)} turns`;
    rows.push(
      { measure: `${at}: sync wall (child process, ${j.node})`, value: `${j.time_s.wall} s, ${n(j.rows_per_s)} rows/s`, target: '' },
      { measure: `${at}: DuckDB read_json of the same pages`, value: `${j.time_s.duckdb_read_json} s, ${n(j.duckdb_rows_per_s)} rows/s`, target: '' },
      { measure: `${at}: ratio vs DuckDB`, value: String(j.ratio_vs_duckdb), target: `>= ${TARGET.ratio}: ${mark(j.ratio_vs_duckdb >= TARGET.ratio)}` },
      { measure: `${at}: time split (s)`, value: `fetch ${j.time_s.fetch} (validate ${j.time_s.validate}, land ${j.time_s.land}), merge busy ${j.time_s.merge_busy}, merge after fetch ${j.time_s.merge_after_fetch}, publish ${j.time_s.publish}`, target: '' },
      { measure: `${at}: peak RSS of the sync process`, value: `${n(j.peak_rss_mb)} MB`, target: `<= ${TARGET.rssMb} MB: ${mark(j.peak_rss_mb <= TARGET.rssMb)}` },
      ...(j.container ? [{ measure: `${at}: the same full sync as the container runs it (the Dockerfile's settings)`, value: `${n(j.container.peak_rss_mb)} MB peak RSS, ${j.container.wall_s} s`, target: `<= ${TARGET.rssMb} MB: ${mark(j.container.peak_rss_mb <= TARGET.rssMb)}` }] : []),
      ...(j.bare_node ? [{ measure: `${at}: the same full sync with Node's defaults (node bin/docs-etl.js)`, value: `${n(j.bare_node.peak_rss_mb)} MB peak RSS, ${j.bare_node.wall_s} s`, target: '' }] : []),
      { measure: `${at}: requests (${j.windows} windows)`, value: `${j.requests} (ideal ${j.ideal_requests}; per window ${j.ideal_requests_windowed})`, target: `= ideal: ${mark(j.requests === j.ideal_requests)}` },
      { measure: `${at}: steady run (nothing new), median of ${j.steady.runs_s.length}`, value: `${j.steady.run_s} s (${j.steady.runs_s.join(', ')}), publish ${n(j.steady.publish_ms)} ms = ${r0(j.steady.publish_share * 100)}%`, target: `<= ${TARGET.publishShare * 100}%: ${mark(j.steady.publish_share <= TARGET.publishShare)}` },
      { measure: `${at}: report (30 days)`, value: `${n(j.report_ms)} ms, ${n(j.report_kb)} KB`, target: j.n === 1_000_000 ? `<= 5 s: ${mark(j.report_ms <= TARGET.reportMs1M)}` : '' },
      { measure: `${at}: warehouse / read path / its Parquet files`, value: `${j.warehouse_mb} MB / ${j.snapshot_mb} MB / ${j.read_surface_mb} MB in ${j.read_surface_files} files`, target: '' },
      { measure: `${at}: steady run peak RSS, bytes the publish wrote`, value: `${n(j.steady.peak_rss_mb)} MB, ${n(j.steady.publish_bytes / 1024)} KB (full sync: ${n(j.steady.full_publish_bytes / 1e6)} MB)`, target: '' },
      { measure: `${at}: lake export, full (local folder)`, value: `${j.lake.full.s} s, ${j.lake.full.mb} MB in ${n(j.lake.full.files)} files, ${j.lake.full.manifests} Iceberg manifests`, target: '' },
      {
        measure: `${at}: lake export, incremental after ${n(j.lake.incremental.new_turns)} new turns`,
        value: `${j.lake.incremental.s} s, ${n(j.lake.incremental.kb)} KB in ${j.lake.incremental.files} of ${n(j.lake.incremental.lake_files)} files, ${j.lake.incremental.manifests} manifests for ${j.lake.incremental.tables_written} changed tables`,
        target: `one manifest per changed table: ${mark(j.lake.incremental.manifests === j.lake.incremental.tables_written)}`,
      },
      ...Object.keys(j.views_ms).map((v) => ({
        measure: `${at}: view ${v}, read path vs native (warm)`,
        value: `${n(j.views_ms[v]!)} ms vs ${n(j.native_views_ms[v] ?? 0)} ms = ${r2(j.views_ms[v]! / Math.max(1, j.native_views_ms[v] ?? 0))}x`,
        target: '',
      })),
    );
  }
  const json = benchJson(sizes, budget) as { rss_growth: number | null };
  if (json.rss_growth !== null) {
    rows.push({ measure: 'peak RSS growth, largest vs smallest size', value: `${r0(json.rss_growth * 100)}%`, target: `<= 10%: ${mark(json.rss_growth <= TARGET.rssGrowth)}` });
  }
  const i20 = issue20Figures(sizes.map(sizeJson));
  if (i20) {
    rows.push(
      { measure: 'steady run, largest vs smallest size', value: `${i20.runRatio}x`, target: `<= ${TARGET.steadyRatio}x: ${mark(i20.runRatio <= TARGET.steadyRatio)}` },
      { measure: 'steady run peak RSS, growth largest vs smallest', value: `${r0(i20.rssGrowth * 100)}% (at most ${i20.steadyMaxMb} MB)`, target: `<= ${TARGET.steadyRssMb} MB and 10%: ${mark(i20.steadyMaxMb <= TARGET.steadyRssMb && i20.rssGrowth <= TARGET.rssGrowth)}` },
      { measure: 'views through the read path vs native, largest size', value: `at most ${i20.viewsMax}x`, target: `<= ${TARGET.viewsVsNative}x: ${mark(i20.viewsMax <= TARGET.viewsVsNative)}` },
    );
  }
  if (budget) {
    rows.push({
      measure: `budget ${budget.rateLimit} for ${budget.durationS} s`,
      value: `${budget.requests}/${budget.allowed} = ${r2(budget.utilization * 100)}%, ${budget.http429} x 429, max ${budget.maxInWindow} in a window`,
      target: `>= 95%, no 429: ${mark(budget.utilization >= TARGET.utilization && budget.http429 === 0 && budget.maxInWindow <= budget.limit)}`,
    });
  }
  return formatTable(rows);
}
