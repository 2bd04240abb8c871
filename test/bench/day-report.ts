// What `npm run bench -- --scenario day` prints for each rate: a table of its runs and a table of the
// issue-16 targets (met / MISSED with the numbers); and, as the LAST line, one JSON object (dayJson
// per rate). Targets that the issue sets only for some rates are null for the others.
import { formatTable } from '../../src/cli/format.js';
import { PURPOSES } from '../../src/core/window.js';
import { addByPurpose, emptyByPurpose, share, type ByPurpose } from './day-metrics.js';
import { BUDGET, type DayRun, type DayScenarioResult } from './day-scenario.js';
import type { Freshness } from './day-compare.js';

const HOUR = 3_600_000;
const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
/** Rates up to this get the freshness and no-exit-3 targets; above it, the head/settle/drop targets (issue 16). */
const MODERATE_MAX = 100_000;


function fractions(f: Freshness) {
  return {
    fresh_3h: share(f.loaded3h, f.visible3h), fresh_10m: share(f.loaded10m, f.visible10m),
    fresh_3h_last24h: share(f.loaded3hLast24h, f.visible3hLast24h), fresh_10m_last24h: share(f.loaded10mLast24h, f.visible10mLast24h),
  };
}

const sumBy = (runs: readonly DayRun[], k: keyof Pick<DayRun, 'windows' | 'pages' | 'incomplete' | 'selected' | 'deferred' | 'notReached'>): ByPurpose =>
  runs.reduce((acc, r) => addByPurpose(acc, r[k]), emptyByPurpose());

function windowsOf(runs: readonly DayRun[]) {
  return {
    started: sumBy(runs, 'windows'), pages: sumBy(runs, 'pages'), incomplete: sumBy(runs, 'incomplete'),
    selected: sumBy(runs, 'selected'), deferred: sumBy(runs, 'deferred'), not_reached: sumBy(runs, 'notReached'),
  };
}

export function dayJson(d: DayScenarioResult) {
  const steady = d.runs.filter((r) => r.phase === 'steady');
  const warmup = d.runs.filter((r) => r.phase === 'warmup');
  const first = d.runs.find((r) => r.phase === 'first');
  const sum = (rs: readonly DayRun[], f: (r: DayRun) => number) => rs.reduce((n, r) => n + f(r), 0);
  const requests = sum(steady, (r) => r.requests);
  const ideal = sum(steady, (r) => r.ideal);
  const fr = d.freshness.map(fractions);
  const min = (k: keyof ReturnType<typeof fractions>) => (fr.length ? r4(Math.min(...fr.map((f) => f[k]))) : null);
  const lagH = steady.map((r) => (r.coverage.headLagMs === null ? null : r2(r.coverage.headLagMs / HOUR)));
  const lagMax = lagH.some((x) => x === null) ? null : Math.max(...(lagH as number[]));
  const unsettledMaxH = r2(Math.max(0, ...steady.map((r) => r.coverage.unsettledOverdueMs)) / HOUR);
  const flagMissingMaxH = r2(Math.max(0, ...steady.map((r) => r.coverage.settledFlagMissingMs)) / HOUR);
  const exit3Steady = steady.filter((r) => r.exitCode === 3).length;
  const ws = windowsOf(steady);
  const droppedHeadSettle = ws.deferred.head + ws.deferred.settle + ws.not_reached.head + ws.not_reached.settle + ws.incomplete.head + ws.incomplete.settle;
  const moderate = d.rate <= MODERATE_MAX;
  const s = d.settle;
  const last = d.runs.at(-1)!;
  return {
    rate: d.rate,
    start: new Date(d.startMs).toISOString(),
    from: new Date(d.fromMs).toISOString(),
    runs: d.runs.length,
    skipped_ticks: d.skippedTicks,
    requests_per_day: requests,
    ideal_per_day: ideal,
    ratio: ideal ? r2(requests / ideal) : null,
    requests_warmup: sum(warmup, (r) => r.requests),
    ideal_warmup: sum(warmup, (r) => r.ideal),
    requests_first_run: first?.requests ?? null,
    ideal_first_run: first?.ideal ?? null,
    freshness: {
      min_3h: min('fresh_3h'), min_10m: min('fresh_10m'), min_3h_last24h: min('fresh_3h_last24h'), min_10m_last24h: min('fresh_10m_last24h'),
      per_steady_run: fr.map((f) => ({ '3h': r4(f.fresh_3h), '10m': r4(f.fresh_10m), '3h_24h': r4(f.fresh_3h_last24h), '10m_24h': r4(f.fresh_10m_last24h) })),
      cross_check: d.crossCheck && { run: d.crossCheck.index, direct: d.crossCheck.direct, reconstructed: d.crossCheck.reconstructed,
        equal: JSON.stringify(d.crossCheck.direct) === JSON.stringify(d.crossCheck.reconstructed) },
    },
    settle: {
      cutoff: new Date(s.cutoffMs).toISOString(), turns: s.turns, lost: s.lost, lost_in_read_span: s.lostInReadSpan, lost_unread: s.lostUnread,
      stale: s.stale, stale_category: s.staleCategory, stale_status: s.staleStatus, duplicated: s.duplicated, duplicated_all: s.duplicatedAll, phantom: s.phantom,
    },
    requests_per_run: d.runs.map((r) => r.requests),
    ideal_per_run: d.runs.map((r) => r.ideal),
    exit_codes: { first: first?.exitCode ?? null, warmup: warmup.map((r) => r.exitCode), steady: steady.map((r) => r.exitCode) },
    exit3_steady: exit3Steady,
    max_in_hour: d.maxInHour,
    http_429: d.http429,
    head_lag_h: { max_steady: lagMax, per_steady_run: lagH },
    settle_coverage: {
      settle_due_h: r2(d.settleDueMs / HOUR),
      unsettled_overdue_h_max_steady: unsettledMaxH,
      settled_flag_missing_h_max_steady: flagMissingMaxH,
      unread_overdue_h_end: r2(last.coverage.unreadOverdueMs / HOUR),
      unread_h_end: r2(last.coverage.unreadMs / HOUR),
    },
    windows: { steady: ws, warmup: windowsOf(warmup), first: first ? windowsOf([first]) : null },
    seconds: Object.fromEntries(Object.entries(d.seconds).map(([k, v]) => [k, r1(v)])),
    targets: {
      requests: requests <= 3 * ideal,
      freshness: moderate ? (min('fresh_3h')! >= 0.99 && min('fresh_10m')! >= 0.95 && min('fresh_3h_last24h')! >= 0.99 && min('fresh_10m_last24h')! >= 0.95) : null,
      settle: s.lost === 0 && s.stale === 0 && s.duplicated === 0,
      settle_read_span: s.lostInReadSpan === 0 && s.stale === 0 && s.duplicated === 0,
      no_exit3_steady: moderate ? exit3Steady === 0 : null,
      head_lag: moderate ? null : lagMax !== null && lagMax <= 2,
      settle_reads: moderate ? null : unsettledMaxH === 0,
      drops_are_rechecks: moderate ? null : droppedHeadSettle === 0,
      max_in_hour: d.maxInHour <= BUDGET.limit,
    },
  };
}

const purposes = (b: ByPurpose) => PURPOSES.filter((p) => b[p]).map((p) => `${b[p]}${p[0]}`).join(' ') || '-';

/** One row per run. */
export function runsTable(d: DayScenarioResult): string {
  const steadyFresh = new Map(d.runs.filter((r) => r.phase === 'steady').map((r, i) => [r.index, d.freshness[i]] as const));
  return formatTable(d.runs.map((r) => {
    const f = steadyFresh.get(r.index);
    const fr = f && fractions(f);
    return {
      run: r.index, phase: r.phase, at: `+${(r.startAt - d.startMs) / HOUR}h`, exit: r.exitCode, requests: r.requests, ideal: r.ideal,
      'windows (h s r b)': purposes(r.windows), deferred: purposes(r.deferred), 'not reached': purposes(r.notReached),
      'head lag': r.coverage.headLagMs === null ? '' : `${r1(r.coverage.headLagMs / 60_000)}m`,
      'unsettled overdue (flag)': r.coverage.unsettledOverdueMs || r.coverage.settledFlagMissingMs
        ? `${r1(r.coverage.unsettledOverdueMs / HOUR)}h (${r1(r.coverage.settledFlagMissingMs / HOUR)}h)` : '',
      'fresh 3h/10m (24h)': fr ? `${r2(fr.fresh_3h_last24h * 100)}% / ${r2(fr.fresh_10m_last24h * 100)}%` : '',
      virtual: `${r1((r.endAt - r.startAt) / 60_000)}m`, real: `${r1(r.realMs / 1000)}s`,
    };
  }));
}

/** The targets with their numbers. */
export function targetsTable(d: DayScenarioResult): string {
  const j = dayJson(d);
  const { targets: t, freshness: f, settle: s, settle_coverage: c } = j;
  const w = j.windows.steady;
  const mark = (ok: boolean | null) => (ok === null ? 'n/a at this rate' : ok ? 'met' : 'MISSED');
  const rows: { measure: string; value: string; target: string; met: boolean | null }[] = [
    { measure: 'steady requests/day vs ideal', value: `${j.requests_per_day} / ${j.ideal_per_day} = ${j.ratio}x`, target: '<= 3x', met: t.requests },
    { measure: 'freshness min, visible >= 3h (all / last 24h)', value: `${f.min_3h} / ${f.min_3h_last24h}`, target: '>= 0.99', met: t.freshness },
    { measure: 'freshness min, visible >= 10m (all / last 24h)', value: `${f.min_10m} / ${f.min_10m_last24h}`, target: '>= 0.95', met: t.freshness },
    { measure: `turns ts <= ${s.cutoff}: lost (in read span) / stale / dup`, value: `${s.lost} (${s.lost_in_read_span}) / ${s.stale} / ${s.duplicated} of ${s.turns}`, target: '0 / 0 / 0', met: t.settle },
    { measure: 'exit 3 in steady state', value: `${j.exit3_steady} of ${j.exit_codes.steady.length}`, target: '0', met: t.no_exit3_steady },
    { measure: 'head lag after steady runs, max', value: `${j.head_lag_h.max_steady} h`, target: '<= 2 h', met: t.head_lag },
    { measure: `no settle read at age > ${c.settle_due_h} h, max`, value: `${c.unsettled_overdue_h_max_steady} h (never read: ${c.unread_overdue_h_end} h)`, target: '0 h', met: t.settle_reads },
    { measure: 'settle-read intervals not flagged settled, max', value: `${c.settled_flag_missing_h_max_steady} h`, target: '0 h', met: c.settled_flag_missing_h_max_steady === 0 },
    { measure: 'steady windows dropped: deferred / not reached', value: `${purposes(w.deferred)} / ${purposes(w.not_reached)}`, target: 'rechecks only', met: t.drops_are_rechecks },
    { measure: 'requests in any hour (sandbox log)', value: `${j.max_in_hour}, ${j.http_429} x 429`, target: `<= ${BUDGET.limit}`, met: t.max_in_hour },
  ];
  return formatTable(rows.map((r) => ({ measure: r.measure, value: r.value, target: r.target, result: mark(r.met) })));
}
