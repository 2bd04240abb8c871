// Data freshness: how far the loaded data reaches (head), how much of it may still change
// (unsettled: between the settled point and the head), quarantined records and the last runs, from
// the freshness view and sync_runs. A head older than STALE_AFTER_MS puts a warning at the top.
import { ago, count, span, utc } from './format.js';
import { html, type Html } from './html.js';
import type { FreshnessRow, ReportData, RunRow } from './report-data.js';
import { section } from './render-tables.js';
import { sortableTable, type Column } from './table.js';

/** The same age `docs-etl status --check` allows by default: a daily sync plus slack. */
export const STALE_AFTER_MS = 26 * 3_600_000;

export function staleHeads(d: ReportData, now: Date): FreshnessRow[] {
  return d.freshness.filter((f) => !f.headAt || now.getTime() - f.headAt.getTime() > STALE_AFTER_MS);
}

export function renderStaleBanner(d: ReportData, now: Date): Html | '' {
  const stale = staleHeads(d, now);
  if (!stale.length || d.freshness.length === 0) return '';
  const items = stale.map((f) => html`<li><strong>${f.projectId}</strong> (${f.pipeline}): ${f.headAt ? html`data reaches ${utc(f.headAt)}, ${ago(f.headAt, now)}` : 'no complete window loaded yet'}${
    f.lastStatus ? html`; last run ${f.lastStatus}${f.lastError ? html`: ${f.lastError}` : ''}` : ''}</li>`);
  return html`<aside class="stale" role="alert" data-stale="${stale.length}">
<strong>The data may be stale.</strong> Loaded data should reach within ${span(STALE_AFTER_MS)} of now:
<ul>${items}</ul>
</aside>`;
}

export function renderFreshness(d: ReportData, now: Date): Html {
  const heads: Column<FreshnessRow>[] = [
    { label: 'Project', cell: (r) => r.projectId },
    { label: 'Pipeline', cell: (r) => r.pipeline },
    { label: 'Data reaches (head)', cell: (r) => utc(r.headAt), sortKey: (r) => r.headAt?.getTime() ?? null },
    { label: 'Head lag', cell: (r) => (r.headAt ? ago(r.headAt, now) : '–'), sortKey: (r) => (r.headAt ? now.getTime() - r.headAt.getTime() : null), help: 'how long ago the loaded data ends' },
    {
      label: 'Unsettled span', help: 'data between the settled point and the head may still change (late arrivals, categories filled in later)',
      cell: (r) => (r.headAt && r.settledTo ? span(Math.max(0, r.headAt.getTime() - r.settledTo.getTime())) : 'not recorded'),
      sortKey: (r) => (r.headAt && r.settledTo ? r.headAt.getTime() - r.settledTo.getTime() : null),
    },
    { label: 'Last run', cell: (r) => (r.lastRunAt ? html`<span class="status ${statusClass(r.lastStatus)}">${r.lastStatus ?? ''}</span> ${utc(r.lastRunAt)}` : '–'), sortKey: (r) => r.lastRunAt?.getTime() ?? null },
    { label: 'Quarantined records', cell: (r) => count(r.quarantined), sortKey: (r) => r.quarantined },
  ];
  const runs: Column<RunRow>[] = [
    { label: 'Started', cell: (r) => utc(r.startedAt), sortKey: (r) => r.startedAt.getTime() },
    { label: 'Project', cell: (r) => r.projectId },
    { label: 'Pipeline', cell: (r) => r.pipeline },
    { label: 'Status', cell: (r) => html`<span class="status ${statusClass(r.status)}">${r.status}</span>` },
    { label: 'Duration', cell: (r) => (r.finishedAt ? span(r.finishedAt.getTime() - r.startedAt.getTime()) : '–'), sortKey: (r) => (r.finishedAt ? r.finishedAt.getTime() - r.startedAt.getTime() : null) },
    { label: 'Requests', cell: (r) => count(r.requests), sortKey: (r) => r.requests },
    { label: 'Turns upserted', cell: (r) => count(r.rowsUpserted), sortKey: (r) => r.rowsUpserted },
    { label: 'Quarantined', cell: (r) => count(r.rowsQuarantined), sortKey: (r) => r.rowsQuarantined },
    { label: 'Error', cell: (r) => r.error ?? '' },
  ];
  const body = html`${d.freshness.length ? sortableTable(heads, d.freshness, { name: 'freshness', sortedBy: 0, direction: 'ascending' }) : html`<p class="no-rows">No sync has run yet.</p>`}
<h3>Last runs</h3>
${d.runs.length ? sortableTable(runs, d.runs, { name: 'runs', sortedBy: 0, direction: 'descending' }) : html`<p class="no-rows">No run recorded.</p>`}`;
  return section('freshness', 'Data freshness', html`What the numbers above are based on, as of ${utc(now)}.`, body);
}

function statusClass(status: string | null): string {
  if (status === 'succeeded') return 'ok';
  if (status === 'budget_exhausted' || status === 'running' || status === 'stopped') return 'warn';
  return 'bad';
}
