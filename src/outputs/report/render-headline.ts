// The headline: four numbers of the period against the period before, and the empty states shown
// instead of charts and tables when the selection has no turns in the period.
import { count, countChange, percent, pointChange, rate } from './format.js';
import { html, type Html } from './html.js';
import type { ReportData, Totals } from './report-data.js';
import { daysLabel, type ReportPeriod } from './period.js';
import { comparisonGap } from './render-coverage.js';

interface Metric {
  name: string;
  label: string;
  help: string;
  value: (t: Totals) => number | null;
  show: (t: Totals) => string;
  change: (now: Totals, before: Totals) => string;
  /** A rise is bad news (coloured as such); numbers without it are not judged. */
  riseIsBad?: boolean;
}

const METRICS: Metric[] = [
  {
    name: 'turns', label: 'Questions asked (turns)', help: 'turns (daily_category_breakdown)',
    value: (t) => t.turns, show: (t) => count(t.turns), change: (a, b) => countChange(a.turns, b.turns),
  },
  {
    name: 'conversations', label: 'Conversations started', help: 'threads whose first turn falls in the period',
    value: (t) => t.conversations, show: (t) => count(t.conversations), change: (a, b) => countChange(a.conversations, b.conversations),
  },
  {
    name: 'unanswered_rate', label: 'Unanswered rate', help: 'unanswered turns / turns (daily_category_breakdown)', riseIsBad: true,
    value: (t) => rate(t.unanswered, t.turns), show: (t) => percent(t.unanswered, t.turns),
    change: (a, b) => pointChange(rate(a.unanswered, a.turns), rate(b.unanswered, b.turns)),
  },
  {
    name: 'clarifying_share', label: 'Clarifying questions', help: 'turns answered with a clarifying question / turns (daily_category_breakdown)',
    value: (t) => rate(t.clarifyingQuestions, t.turns), show: (t) => percent(t.clarifyingQuestions, t.turns),
    change: (a, b) => pointChange(rate(a.clarifyingQuestions, a.turns), rate(b.clarifyingQuestions, b.turns)),
  },
];

export function periodLabel(p: ReportPeriod): string {
  return `${p.from} → ${p.to} (${p.days} ${daysLabel(p, p.days)}, today so far included)`;
}

export function renderHeadline(d: ReportData, p: ReportPeriod): Html {
  // A comparison with a period that was never loaded would be a made-up change (+2812%).
  const gap = comparisonGap(d, p);
  const cards = METRICS.map((m) => {
    const now = m.value(d.current);
    const before = m.value(d.previous);
    const change = m.change(d.current, d.previous);
    const trend = !m.riseIsBad || now === null || before === null || now === before ? 'flat' : now > before ? 'worse' : 'better';
    const detail = m.name === 'unanswered_rate' ? html`<div class="detail">${count(d.current.unanswered)} unanswered turns</div>`
      : m.name === 'clarifying_share' ? html`<div class="detail">${count(d.current.clarifyingQuestions)} clarifying turns</div>` : '';
    return html`<div class="metric" data-metric="${m.name}" data-value="${now ?? ''}" data-previous="${before ?? ''}" title="${m.help}">
<div class="label">${m.label}</div><div class="value">${m.show(d.current)}</div>${detail}
${gap === null
    ? html`<div class="change ${trend}">${change} <span class="vs">vs ${m.show(d.previous)} in ${p.prevFrom} → ${p.prevTo}</span></div>`
    : html`<div class="change flat" data-no-comparison><span class="vs">${gap}</span></div>`}
</div>`;
  });
  return html`<section id="headline" aria-labelledby="h-headline">
<h2 id="h-headline">The period at a glance</h2>
<div class="metrics">${cards}</div>
</section>`;
}

/** What to show instead of charts: null when the period has turns. */
export function renderEmptyState(d: ReportData, p: ReportPeriod): Html | null {
  if (d.current.turns > 0) return null;
  if (d.newestDay === null) {
    return html`<section class="empty-state" data-empty-state="no-data">
<h2>No conversations in the warehouse yet</h2>
<p>There is nothing to chart: no turn has been loaded${d.projects.length ? html` for ${d.projects.join(', ')}` : ''}.
Run <code>docs-etl sync</code>, then write this report again. The runs below show what the last syncs did.</p>
</section>`;
  }
  return html`<section class="empty-state" data-empty-state="no-recent-data">
<h2>No conversations in this period</h2>
<p>No turn falls in ${periodLabel(p)}. The newest loaded turn is from <strong>${d.newestDay}</strong>: the data is stale or the
site was quiet. Check the runs below, or write the report for a longer period (<code>--since</code>).</p>
</section>`;
}
