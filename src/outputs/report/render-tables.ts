// The report's tables: categories, top unanswered questions, pages where unanswered questions start,
// most cited sources, pages never cited. All sortable; all text from the data escaped by `html`.
import { count, percent, pointChange, rate, utc } from './format.js';
import { html, type Html } from './html.js';
import { LIMITS, type CategoryRow, type NeverCitedRow, type PageRow, type QuestionRow, type ReportData, type SourceRow } from './report-data.js';
import { sortableTable, type Column } from './table.js';

const ms = (d: Date) => d.getTime();

/** A link only for http(s) URLs (never javascript: or data:); anything else is shown as text. */
function link(url: string, text: string): Html | string {
  return /^https?:\/\//i.test(url) ? html`<a href="${url}" rel="noopener noreferrer" target="_blank">${text}</a>` : text;
}

function projectColumn<T extends { projectId: string }>(d: ReportData): Column<T>[] {
  return d.projects.length > 1 ? [{ label: 'Project', cell: (r) => r.projectId }] : [];
}

/**
 * Per category, with the period before beside it. `noComparison` (render-coverage.ts's reason, as
 * in the headline) replaces the "before" and change columns with "not loaded": the headline's rule
 * for every comparison, never a change against a period that was not loaded in full.
 */
export function categoriesTable(rows: CategoryRow[], noComparison: string | null = null): Html {
  const before = (r: CategoryRow) => (noComparison === null ? rate(r.previousUnanswered, r.previousTurns) : null);
  const notLoaded = html`<span class="not-loaded" title="${noComparison ?? ''}">not loaded</span>`;
  const cols: Column<CategoryRow>[] = [
    { label: 'Category', cell: (r) => r.category },
    { label: 'Turns', cell: (r) => count(r.turns), sortKey: (r) => r.turns },
    { label: 'Unanswered', cell: (r) => count(r.unanswered), sortKey: (r) => r.unanswered },
    { label: 'Unanswered rate', cell: (r) => percent(r.unanswered, r.turns), sortKey: (r) => rate(r.unanswered, r.turns) },
    {
      label: 'Rate before', sortKey: before, help: noComparison ?? 'in the period before',
      cell: (r) => (noComparison === null ? percent(r.previousUnanswered, r.previousTurns) : notLoaded),
    },
    {
      label: 'Change', help: noComparison ?? 'percentage points against the period before',
      cell: (r) => (noComparison === null ? pointChange(rate(r.unanswered, r.turns), before(r)) : notLoaded),
      sortKey: (r) => {
        const a = rate(r.unanswered, r.turns);
        const b = before(r);
        return a === null || b === null ? null : a - b;
      },
    },
  ];
  return sortableTable(cols, rows.filter((r) => r.turns > 0), { name: 'categories', sortedBy: 1, direction: 'descending' });
}

export function questionsTable(d: ReportData): Html {
  const cols: Column<QuestionRow>[] = [
    ...projectColumn<QuestionRow>(d),
    {
      label: 'Question', help: 'the latest wording; questions that differ only in case, spacing or final punctuation are grouped',
      cell: (r) => html`<span class="question" title="${r.question}">${r.exampleQuery}</span>`,
    },
    { label: 'Times asked', cell: (r) => count(r.timesAsked), sortKey: (r) => r.timesAsked },
    { label: 'Last asked', cell: (r) => utc(r.lastAskedAt), sortKey: (r) => ms(r.lastAskedAt) },
    {
      label: 'Starting page', help: 'the page most of its conversations started on',
      cell: (r) => html`<code>${r.topPagePath}</code>${r.pages > 1 ? html` <span class="more">+${count(r.pages - 1)} more</span>` : ''}`,
    },
  ];
  const offset = cols.length - 4;
  return section('questions', 'Top unanswered questions',
    html`The ${LIMITS.questions} questions asked most often in the period that the assistant could not answer: the documentation gaps.`,
    d.questions.length ? sortableTable(cols, d.questions, { name: 'questions', sortedBy: offset + 1, direction: 'descending' }) : noRows('No unanswered question in this period.'));
}

export function pagesTable(d: ReportData): Html {
  const cols: Column<PageRow>[] = [
    ...projectColumn<PageRow>(d),
    { label: 'Starting page', cell: (r) => html`<code>${r.pagePath}</code>${r.title ? html` <span class="title">${r.title}</span>` : ''}` },
    { label: 'Unanswered turns', cell: (r) => count(r.unanswered), sortKey: (r) => r.unanswered },
    { label: 'Turns', cell: (r) => count(r.turns), sortKey: (r) => r.turns },
    { label: 'Unanswered rate', cell: (r) => percent(r.unanswered, r.turns), sortKey: (r) => rate(r.unanswered, r.turns) },
  ];
  return section('pages', 'Pages whose visitors ask unanswered questions',
    html`Where the conversations with unanswered turns started (titles from the latest static export, when there is one).`,
    d.pages.length ? sortableTable(cols, d.pages, { name: 'pages', sortedBy: cols.length - 3, direction: 'descending' }) : noRows('No unanswered question in this period.'));
}

export function sourcesTable(d: ReportData): Html {
  const cols: Column<SourceRow>[] = [
    ...projectColumn<SourceRow>(d),
    { label: 'Source', cell: (r) => html`${link(r.url, r.title || r.url)}<div class="url">${r.url}</div>` },
    { label: 'Citations', cell: (r) => count(r.citations), sortKey: (r) => r.citations },
    { label: 'In unanswered turns', cell: (r) => count(r.citationsInUnanswered), sortKey: (r) => r.citationsInUnanswered },
    { label: 'Last cited', cell: (r) => utc(r.lastCitedAt), sortKey: (r) => ms(r.lastCitedAt) },
  ];
  return section('sources', 'Most cited sources', html`The documentation pages the assistant cited most in the period.`,
    d.sources.length ? sortableTable(cols, d.sources, { name: 'sources', sortedBy: cols.length - 3, direction: 'descending' }) : noRows('No source was cited in this period.'));
}

export function neverCitedTable(d: ReportData): Html {
  if (d.inventory.pages === 0) {
    return section('never-cited', 'Pages never cited',
      html`Needs a page inventory: run <code>docs-etl static-export --domain …</code> once, then write the report again.`, '');
  }
  const cols: Column<NeverCitedRow>[] = [
    { label: 'Domain', cell: (r) => r.domain },
    { label: 'Page', cell: (r) => html`<code>${r.path}</code>` },
    { label: 'Title', cell: (r) => r.title ?? '' },
    { label: 'Size (bytes)', cell: (r) => count(r.bytes), sortKey: (r) => r.bytes },
  ];
  const shown = d.neverCited.length < d.inventory.neverCited ? html` (the first ${count(d.neverCited.length)} are listed)` : '';
  return section('never-cited', 'Pages never cited',
    html`${count(d.inventory.neverCited)} of the ${count(d.inventory.pages)} pages of the latest static export${d.inventory.domains > 1 ? 's' : ''}
(${utc(d.inventory.exportedAt)}) were never cited by the assistant, in all the loaded history${shown}.`,
    d.neverCited.length ? sortableTable(cols, d.neverCited, { name: 'never-cited', sortedBy: 1, direction: 'ascending' }) : noRows('Every page was cited at least once.'));
}

export function section(id: string, title: string, intro: Html | string, body: Html | string): Html {
  return html`<section id="${id}" aria-labelledby="h-${id}">
<h2 id="h-${id}">${title}</h2>
<p class="intro">${intro}</p>
${body}
</section>`;
}

function noRows(text: string): Html {
  return html`<p class="no-rows">${text}</p>`;
}
