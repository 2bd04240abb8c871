// "Gap topics": the report's section from gap_topics (docs/topics.md): the unanswered questions
// grouped by what they ask, biggest first, with the last 7 days against the 7 before, example
// questions as asked, the pages where they started and what the assistant cited when it failed.
import { count, countChange, utc } from './format.js';
import { html, type Html } from './html.js';
import type { GapTopicRow } from './gap-topics-data.js';
import type { ReportData } from './report-data.js';
import { section } from './render-tables.js';
import { sortableTable, type Column } from './table.js';

export function gapTopicsSection(d: ReportData): Html {
  const topics = d.gapTopics;
  if (topics === null) {
    return section('gap-topics', 'Gap topics',
      html`Needs the topic step: run <code>docs-etl sync</code> (or <code>docs-etl topics --rebuild</code>) with this docs-etl once.`, '');
  }
  const cols: Column<GapTopicRow>[] = [
    ...(d.projects.length > 1 ? [{ label: 'Project', cell: (r: GapTopicRow) => r.projectId }] : []),
    {
      label: 'Topic', help: 'a representative question (the most asked), then other ways it was asked',
      cell: (r) => html`<strong class="topic-label">${r.label}</strong>${r.examples.length > 1
        ? html`<ul class="examples">${r.examples.slice(1).map((e) => html`<li><q>${e}</q></li>`)}</ul>` : ''}`,
    },
    { label: 'Language', cell: (r) => r.language },
    { label: 'Unanswered turns', cell: (r) => count(r.turns), sortKey: (r) => r.turns, help: 'in the topic period' },
    { label: 'Conversations', cell: (r) => count(r.conversations), sortKey: (r) => r.conversations },
    { label: 'Last 7 days', cell: (r) => count(r.turnsLast7d), sortKey: (r) => r.turnsLast7d },
    {
      label: 'Trend', help: 'the last 7 days against the 7 days before',
      cell: (r) => countChange(r.turnsLast7d, r.turnsPrev7d), sortKey: (r) => r.trend,
    },
    { label: 'Started on', cell: (r) => html`${r.topPages.map((p, i) => html`${i ? ', ' : ''}<code>${p}</code>`)}`, help: 'pages where its conversations started most' },
    { label: 'Cited when it failed', cell: (r) => html`${r.citedSources.map((u, i) => html`${i ? ', ' : ''}<code>${u}</code>`)}`, help: 'sources the assistant cited in these unanswered turns' },
    { label: 'Last asked', cell: (r) => utc(r.lastAskedAt), sortKey: (r) => r.lastAskedAt.getTime() },
  ];
  const first = topics[0];
  const period = first ? html` (from ${utc(first.periodFrom)}, computed ${utc(first.computedAt)})` : '';
  return section('gap-topics', 'Gap topics',
    html`The unanswered questions grouped by what they ask, whatever their wording, typos or word order (questions of different languages are separate topics):
the ${topics.length} biggest topics of the topic period${period}; view <code>gap_topics_top</code>, members in <code>gap_topic_members</code>.`,
    topics.length
      ? sortableTable(cols, topics, { name: 'gap-topics', sortedBy: d.projects.length > 1 ? 3 : 2, direction: 'descending' })
      : html`<p class="no-rows">No unanswered question in the topic period.</p>`);
}
