// "Pages to improve": the report's section from page_gaps_daily (sql/report/page-gaps.sql): per page,
// the signals that the documentation falls short there (unanswered assistant turns, thumbs down,
// searches whose clicks go to the page but rarely) beside its traffic, so a docs team can weigh a
// gap by how many readers it meets.
import { count, percent, rate } from './format.js';
import { html, type Html } from './html.js';
import { LIMITS, type PageGapRow, type ReportData } from './report-data.js';
import { section } from './render-tables.js';
import { sortableTable, type Column } from './table.js';

export function pageGapsTable(d: ReportData): Html {
  if (!d.trafficLoaded) {
    return section('page-gaps', 'Pages to improve',
      html`Needs the per-page exports: run <code>docs-etl sync --pipelines page_views,page_visitors,feedback_by_page,searches</code>
(or every pipeline, the default) to join traffic, feedback and searches with the assistant's unanswered questions by page.`, '');
  }
  const cols: Column<PageGapRow>[] = [
    ...(d.projects.length > 1 ? [{ label: 'Project', cell: (r: PageGapRow) => r.projectId }] : []),
    { label: 'Page', cell: (r) => html`<code>${r.path}</code>` },
    { label: 'Unanswered turns', cell: (r) => count(r.unanswered), sortKey: (r) => r.unanswered, help: 'assistant turns starting on the page that it could not answer' },
    { label: 'Unanswered rate', cell: (r) => percent(r.unanswered, r.turns), sortKey: (r) => rate(r.unanswered, r.turns) },
    { label: 'Thumbs down', cell: (r) => count(r.thumbsDown), sortKey: (r) => r.thumbsDown },
    { label: 'Thumbs up', cell: (r) => count(r.thumbsUp), sortKey: (r) => r.thumbsUp },
    { label: 'Views', cell: (r) => count(r.views), sortKey: (r) => r.views, help: 'page views, human and AI' },
    { label: 'AI share', cell: (r) => percent(r.viewsAi, r.views), sortKey: (r) => rate(r.viewsAi, r.views), help: 'share of the views by AI agents' },
    { label: 'Visitors', cell: (r) => count(r.visitors), sortKey: (r) => r.visitors, help: 'sum of daily visitors' },
    {
      label: 'Searches with low click-through', help: 'search terms whose clicks go mostly to this page, with a click-through rate under 20%',
      cell: (r) => r.lowCtrSearches.length ? html`${r.lowCtrSearches.map((s, i) => html`${i ? ', ' : ''}<q>${s}</q>`)} <span class="more">(${count(r.lowCtrHits)} hits)</span>` : '',
      sortKey: (r) => r.lowCtrHits,
    },
  ];
  const first = d.projects.length > 1 ? 2 : 1;
  return section('page-gaps', 'Pages to improve',
    html`The ${LIMITS.pageGaps} pages with the most unanswered assistant turns in the period (then thumbs down, then low click-through searches), beside their traffic
and the searches that land there without satisfying (view <code>page_gaps_daily</code>; <code>page_gaps</code> over all days).`,
    d.pageGaps.length
      ? sortableTable(cols, d.pageGaps, { name: 'page-gaps', sortedBy: first, direction: 'descending' })
      : html`<p class="no-rows">No page had an unanswered turn, a thumbs down or a low click-through search in this period.</p>`);
}
