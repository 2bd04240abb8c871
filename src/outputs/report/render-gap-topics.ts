// "Gap topics": the report's first section, the one a docs writer acts on ("write a page about X").
// The unanswered questions grouped by what they ask (docs/topics.md), counted over the report's
// period only (gap-topics-data.ts), biggest first. A topic is named by its most representative
// question (the medoid, not the most asked wording, which keeps its typos) and its distinctive
// terms; then other wordings asked, the last 7 days against the 7 before (when those are loaded),
// the pages where they started and what the assistant cited when it failed. Its caveats say what
// the figures cannot cover: days not loaded, days before the topic period, turns after the step.
import { count, countChange, utc } from './format.js';
import { html, type Html } from './html.js';
import { topicTitle, type GapTopicRow } from './gap-topics-data.js';
import type { ReportData } from './report-data.js';
import { completeDays } from './render-coverage.js';
import type { ReportPeriod } from './period.js';
import { section } from './render-tables.js';
import { sortableTable, type Column } from './table.js';

const NO_COMPARISON = 'the 7 days before are not all loaded, or fall before the topic period';

function topicCell(r: GapTopicRow): Html {
  const title = topicTitle(r);
  const others = r.examples.filter((e) => e !== title).slice(0, 2);
  return html`<strong class="topic-label">${title}</strong>${r.distinctiveTerms.length
    ? html`<div class="topic-terms">${r.distinctiveTerms.map((t, i) => html`${i ? ' · ' : ''}<span>${t}</span>`)}</div>` : ''}${others.length
    ? html`<ul class="examples">${others.map((e) => html`<li><q>${e}</q></li>`)}</ul>` : ''}`;
}

function columns(d: ReportData): Column<GapTopicRow>[] {
  return [
    ...(d.projects.length > 1 ? [{ label: 'Project', cell: (r: GapTopicRow) => r.projectId }] : []),
    { label: 'Topic', help: 'its most representative question (the medoid), its distinctive terms, then other ways it was asked', cell: topicCell },
    { label: 'Language', cell: (r) => r.language },
    { label: 'Unanswered turns', cell: (r) => count(r.turns), sortKey: (r) => r.turns, help: 'in the report\'s period' },
    { label: 'Questions', cell: (r) => count(r.questions), sortKey: (r) => r.questions, help: 'distinct questions (normalized) in the report\'s period' },
    { label: 'Conversations', cell: (r) => count(r.conversations), sortKey: (r) => r.conversations },
    { label: 'Last 7 days', cell: (r) => count(r.turnsLast7d), sortKey: (r) => r.turnsLast7d, help: 'the period\'s last 7 days, today so far included' },
    {
      label: 'Trend', help: 'the last 7 days against the 7 days before',
      cell: (r) => (r.prevWeekLoaded ? countChange(r.turnsLast7d, r.turnsPrev7d) : html`<span class="not-loaded" title="${NO_COMPARISON}">not loaded</span>`),
      sortKey: (r) => (r.prevWeekLoaded && r.turnsPrev7d > 0 ? (r.turnsLast7d - r.turnsPrev7d) / r.turnsPrev7d : null),
    },
    { label: 'Started on', cell: (r) => html`${r.topPages.map((p, i) => html`${i ? ', ' : ''}<code>${p}</code>`)}`, help: 'pages where its conversations started most' },
    { label: 'Cited when it failed', cell: (r) => html`${r.citedSources.map((u, i) => html`${i ? ', ' : ''}<code>${u}</code>`)}`, help: 'sources the assistant cited in these unanswered turns' },
    { label: 'Last asked', cell: (r) => utc(r.lastAskedAt), sortKey: (r) => r.lastAskedAt.getTime() },
  ];
}

/** What the figures cannot cover: each caveat one list item (data-caveat names it for tests). */
function caveats(d: ReportData, p: ReportPeriod): Html {
  const items: Html[] = [];
  const turns = d.coverage.find((c) => c.pipeline === 'assistant_conversations');
  const full = completeDays(p);
  if (turns && turns.loaded < full) {
    items.push(html`<li data-caveat="partial">Assistant turns: <strong>${turns.loaded} of ${full}</strong> complete days of the period loaded; the counts cover only those days.</li>`);
  }
  const topics = d.gapTopics ?? [];
  const late = topics.map((t) => t.periodFromDay).filter((day) => day > p.from).sort().at(-1);
  if (late) items.push(html`<li data-caveat="topic-period">The topics group the questions from ${late} (the topic period, <code>topicPeriod</code>): days of the report before it are not counted.</li>`);
  const computed = topics.map((t) => t.computedAt.getTime()).sort((a, b) => a - b)[0];
  if (computed !== undefined) items.push(html`<li data-caveat="computed">Topics as of ${utc(new Date(computed))}: questions asked since join them at the next sync.</li>`);
  return items.length ? html`<ul class="caveats">${items}</ul>` : html``;
}

export function gapTopicsSection(d: ReportData, p: ReportPeriod): Html {
  const topics = d.gapTopics;
  if (topics === null) {
    return section('gap-topics', 'Gap topics: what to write',
      html`Needs the topic step: run <code>docs-etl sync</code> (or <code>docs-etl topics --rebuild</code>) with this docs-etl once.`, '');
  }
  return section('gap-topics', 'Gap topics: what to write',
    html`The unanswered questions of ${p.from} → ${p.to} grouped by what they ask, whatever their wording, typos or word order (questions of different languages are separate topics):
the ${topics.length} biggest topics of the period, each named by its most representative question and its distinctive terms; view <code>gap_topics_top</code>, members in <code>gap_topic_members</code>.`,
    html`${caveats(d, p)}${topics.length
      ? sortableTable(columns(d), topics, { name: 'gap-topics', sortedBy: d.projects.length > 1 ? 3 : 2, direction: 'descending' })
      : html`<p class="no-rows">No unanswered question of a topic in this period.</p>`}`);
}
