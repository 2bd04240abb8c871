// Sortable tables: the markup the page script sorts (a click on a header button sorts by that
// column; again reverses). Number and time columns carry their sort key in data-sort, text columns
// sort by their text. Every cell goes through `html`, so data is escaped.
import { html, type Html } from './html.js';

export interface Column<T> {
  label: string;
  cell: (row: T) => Html | string | number | null;
  /** Numbers and instants (ms since epoch) sort by this key; columns without one sort as text. */
  sortKey?: (row: T) => number | null;
  /** Header tooltip: what the column counts. */
  help?: string;
}

export interface TableOptions {
  /** Name for tests and styling (data-table). */
  name: string;
  /** The column the rows arrive sorted by, and in which direction. */
  sortedBy: number;
  direction: 'ascending' | 'descending';
}

export function sortableTable<T>(columns: Column<T>[], rows: readonly T[], opts: TableOptions): Html {
  const head = columns.map((c, i) => html`<th scope="col" data-type="${c.sortKey ? 'number' : 'text'}"${
    i === opts.sortedBy ? html` aria-sort="${opts.direction}"` : ''}${c.help ? html` title="${c.help}"` : ''}><button type="button">${c.label}</button></th>`);
  const body = rows.map((r) => html`<tr>${columns.map((c) => {
    const key = c.sortKey?.(r);
    const cls = c.sortKey ? html` class="num"` : '';
    return key === undefined ? html`<td${cls}>${c.cell(r)}</td>` : html`<td${cls} data-sort="${key ?? ''}">${c.cell(r)}</td>`;
  })}</tr>`);
  return html`<div class="table-wrap"><table class="sortable" data-table="${opts.name}">
<thead><tr>${head}</tr></thead>
<tbody>
${body.map((b) => html`${b}\n`)}</tbody></table></div>`;
}
