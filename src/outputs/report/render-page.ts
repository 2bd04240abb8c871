// The whole page: one HTML file with its style, data, chart library and script inlined. A strict
// Content-Security-Policy allows only these exact scripts (by hash) and no request at all, so even a
// mistake in escaping could neither run injected script nor reach the network.
import { createHash } from 'node:crypto';
import { utc } from './format.js';
import { html, raw, scriptJson, type Html } from './html.js';
import { CLIENT_SCRIPT } from './client-script.js';
import { PAGE_STYLE } from './page-style.js';
import { periodLabel, renderEmptyState, renderHeadline } from './render-headline.js';
import { comparisonGap, renderCoverage } from './render-coverage.js';
import { dailySeries, dailyTable } from './daily-series.js';
import { renderFreshness, renderStaleBanner } from './render-freshness.js';
import { pageGapsTable } from './render-page-gaps.js';
import { gapTopicsSection } from './render-gap-topics.js';
import { categoriesTable, neverCitedTable, pagesTable, questionsTable, section, sourcesTable } from './render-tables.js';
import { daysLabel, type ReportPeriod } from './period.js';
import type { ReportData } from './report-data.js';
import { vendorScripts } from './vendor-scripts.js';

export interface PageInput {
  data: ReportData;
  period: ReportPeriod;
  now: Date;
  /** `--project`, or null for every project. */
  projectId: string | null;
  generator: string;
}

/**
 * What the charts draw: every day of the period, categories by volume. A loaded day without turns is
 * a zero; a day not loaded (coverage_days) has no numbers (drawn as `–`, never as 0); today, the
 * period's last day, is `partial` (drawn apart, never read as a full day).
 */
export function chartData(d: ReportData, p: ReportPeriod) {
  return {
    period: { from: p.from, to: p.to },
    periodRate: d.current.turns > 0 ? d.current.unanswered / d.current.turns : 0,
    daily: dailySeries(d, p),
    categoryOrder: d.categories.filter((c) => c.turns > 0).map((c) => c.category),
    categoryDaily: d.categoryDaily,
  };
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function charts(d: ReportData, p: ReportPeriod): Html {
  const figure = (name: string, caption: string) => html`<figure class="chart" data-chart="${name}"><figcaption>${caption}</figcaption></figure>`;
  return html`<section id="daily" aria-labelledby="h-daily">
<h2 id="h-daily">Unanswered rate and volume per day</h2>
<p class="intro" data-days-label>Days are ${daysLabel(p)}. The dashed line is the rate over the whole period. Today is drawn apart (so far: partial); a day whose turns are not loaded is marked – (no number), never 0.</p>
<div class="charts">${figure('daily-rate', 'Unanswered rate per day')}${figure('daily-volume', 'Turns per day, answered and unanswered')}</div>
${dailyTable(d, p)}
</section>`;
}

function categoryCharts(d: ReportData, p: ReportPeriod): Html {
  return section('categories', 'Categories over time',
    html`Unanswered rate and volume per query category and day (${daysLabel(p)}); <code>(none)</code> is not categorized (yet).`,
    html`<div class="charts"><figure class="chart" data-chart="category-rate"><figcaption>Unanswered rate per category and day</figcaption></figure>
<figure class="chart" data-chart="category-volume"><figcaption>Turns per category and day</figcaption></figure></div>
<h3>Per category, against the period before</h3>
${categoriesTable(d.categories, comparisonGap(d, p))}`);
}

export function renderPage(input: PageInput): string {
  const { data: d, period: p, now } = input;
  const empty = renderEmptyState(d, p);
  const scope = input.projectId ?? (d.projects.length ? d.projects.join(', ') : 'no project yet');
  const body = empty
    ? html`${empty}`
    : html`${gapTopicsSection(d, p)}${renderHeadline(d, p)}${renderCoverage(d, p)}${charts(d, p)}${categoryCharts(d, p)}${questionsTable(d)}${pagesTable(d)}${pageGapsTable(d)}${sourcesTable(d)}${neverCitedTable(d)}`;
  const vendor = vendorScripts();
  // The data element is not executed (type application/json), so it needs no hash. Without charts the
  // library stays out; the page script still makes the tables sortable.
  const scripts = empty ? [CLIENT_SCRIPT] : [...vendor.map((v) => v.code), CLIENT_SCRIPT];
  const csp = [
    "default-src 'none'", `script-src ${scripts.map(sha256).join(' ')}`, "style-src 'unsafe-inline'",
    'img-src data:', "base-uri 'none'", "form-action 'none'",
  ].join('; ');
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${input.generator}">
<title>Documentation gaps · ${scope} · ${p.from} → ${p.to}</title>
<style>${raw(PAGE_STYLE)}</style>
</head>
<body>
<header class="top">
<h1>Documentation gaps: ${scope}</h1>
<div class="meta" data-period-from="${p.from}" data-period-to="${p.to}">${periodLabel(p)} · generated ${utc(now)}</div>
${renderStaleBanner(d, now)}
</header>
<main>
${body}
${renderFreshness(d, now)}
</main>
<footer>Every number comes from the warehouse's SQL views (daily_category_breakdown, daily_unanswered_questions, daily_unanswered_by_page,
daily_cited_sources, threads, latest_site_pages, pages_never_cited, page_gaps_daily, searches_daily, freshness) and sync_runs; days are ${daysLabel(p)}. Charts: ${
  vendor.map((v) => `${v.name} ${v.version}`).join(', ')} (ISC license), inlined. ${input.generator}.</footer>
${empty ? '' : html`<script type="application/json" id="report-data">${raw(scriptJson(chartData(d, p)))}</script>`}
${scripts.map((s) => html`<script>${raw(s)}</script>\n`)}</body>
</html>
`;
  return page.value;
}
