// Query results as text: an aligned table fitted to the terminal, CSV (RFC 4180) or JSON.
import stringWidth from 'string-width';
import type { QueryResult, ResultSink } from '../outputs/query/run-query.js';
import { queryJsonConverter } from '../outputs/query/json-values.js';
import { writeDrained } from './closed-output.js';

export type RowFormat = 'table' | 'csv' | 'json';

const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
const csvHeader = (columns: readonly string[]) => `${columns.map(csvField).join(',')}\r\n`;
/** RFC 4180 records (CRLF after each), no header: what a streamed chunk appends. */
const csvRows = (columns: readonly string[], rows: readonly Record<string, unknown>[]) =>
  rows.map((row) => `${columns.map((c) => csvField(text(row[c]))).join(',')}\r\n`).join('');

export function formatCsv(r: QueryResult): string {
  return csvHeader(r.columns) + csvRows(r.columns, r.rows);
}

export function formatJson(r: QueryResult): string {
  return `${JSON.stringify(r.rows)}\n`;
}

/** A column is cut no narrower than this (or its own width); a kept column no narrower than KEPT_FLOOR. */
const COLUMN_FLOOR = 8;
const KEPT_FLOOR = 40;
/** The width assumed when the terminal reports none (0, as some CI terminals and `script` do). */
const DEFAULT_WIDTH = 120;

/**
 * Columns padded by display width; when the table is wider than `width`, the widest columns are
 * cut (with "…") until it fits, none below its floor (COLUMN_FLOOR; the `keep` columns, e.g. a
 * label, are cut last and not below KEPT_FLOOR): a table too wide even then runs past the width rather than become
 * unreadable. Control characters and line breaks print as spaces.
 */
export function formatFitted(r: QueryResult, width: number, keep: readonly string[] = []): string {
  if (!r.rows.length) return `${r.columns.join('  ')}\n(no rows)\n`;
  const room = Number.isFinite(width) && width > 0 ? width : DEFAULT_WIDTH;
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const cells = r.rows.map((row) => r.columns.map((c) => text(row[c]).replace(/[\u0000-\u001f\u007f]+/g, ' ')));
  const widths = r.columns.map((c, i) => Math.max(stringWidth(c), ...cells.map((row) => stringWidth(row[i]!))));
  const floors = r.columns.map((c, i) => Math.min(widths[i]!, keep.includes(c) ? KEPT_FLOOR : COLUMN_FLOOR));
  const sep = 2 * (widths.length - 1);
  // The other columns are cut first (widest first), then the kept ones, each down to its floor.
  const cuttable = (kept: boolean) => widths.map((w, i) => (w > floors[i]! && keep.includes(r.columns[i]!) === kept ? w : -1));
  while (widths.reduce((a, b) => a + b, 0) + sep > room) {
    const over = [cuttable(false), cuttable(true)].find((o) => Math.max(...o) >= 0);
    if (!over) break;
    widths[over.indexOf(Math.max(...over))]!--;
  }
  const fit = (s: string, w: number) => {
    if (stringWidth(s) <= w) return s + ' '.repeat(w - stringWidth(s));
    let out = '';
    for (const ch of s) {
      if (stringWidth(out + ch) > w - 1) break;
      out += ch;
    }
    return `${out}…${' '.repeat(Math.max(0, w - 1 - stringWidth(out)))}`;
  };
  const line = (row: string[]) => row.map((c, i) => fit(c, widths[i]!)).join('  ').trimEnd();
  return [line(r.columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n') + '\n';
}

/** Rows an aligned table shows at most; the rest are counted (csv and json stream every row). */
export const TABLE_MAX_ROWS = 10_000;

/**
 * A statement's rows written as they stream: csv and json chunk by chunk (waiting for the output
 * to drain, so memory stays flat however many rows), a table once its rows are known (at most
 * TABLE_MAX_ROWS of them, then a line counting the others).
 */
export function rowSink(format: RowFormat, columns: string[], width: number, out: NodeJS.WritableStream): ResultSink {
  const write = (s: string) => writeDrained(out, s);
  if (format === 'csv') {
    // The header first, whatever the chunks: a column named with a line break is one quoted field.
    let header = false;
    const rows = (chunk: readonly Record<string, unknown>[]) => {
      const body = (header ? '' : csvHeader(columns)) + csvRows(columns, chunk);
      header = true;
      return write(body);
    };
    return { rows, end: () => (header ? undefined : write(csvHeader(columns))) };
  }
  if (format === 'json') {
    let n = 0;
    return {
      converter: queryJsonConverter,
      rows: (rows) => {
        if (!rows.length) return undefined;
        const body = rows.map((r) => JSON.stringify(r)).join(',');
        const text = (n === 0 ? '[' : ',') + body;
        n += rows.length;
        return write(text);
      },
      end: () => write(n === 0 ? '[]\n' : ']\n'),
    };
  }
  const kept: Record<string, unknown>[] = [];
  let more = 0;
  return {
    rows: (rows) => {
      const room = TABLE_MAX_ROWS - kept.length;
      kept.push(...rows.slice(0, Math.max(0, room)));
      more += Math.max(0, rows.length - Math.max(0, room));
    },
    end: () => write(formatFitted({ columns, rows: kept }, width)
      + (more ? `… ${more.toLocaleString('en-US')} more rows not shown (--format csv or json writes every row)\n` : '')),
  };
}
