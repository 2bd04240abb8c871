// Human summaries for stdout (logs are JSON on stderr). Times are ISO 8601 in full, in UTC
// (2026-11-05T02:00:00.000Z): never a locale string, never cut.
import stringWidth from 'string-width';
import type { ProjectRunSummary } from '../sync/run/summary.js';
import { PURPOSES } from '../core/window.js';
import { serverText } from '../core/server-text.js';

const n = (x: number) => x.toLocaleString('en-US');

export function formatRunLine(r: ProjectRunSummary): string {
  const windows = PURPOSES.map((p) => [p, r.windows.filter((w) => w.purpose === p).length] as const)
    .filter(([, k]) => k > 0).map(([p, k]) => `${k} ${p}`).join(', ') || 'nothing due';
  const deferred = r.deferred ? ` (${r.deferred} deferred)` : '';
  const head = `${r.projectId}/${r.pipeline}: ${r.status} | windows: ${windows}${deferred} | ${n(r.pages)} pages, ${n(r.requests)} requests, ${n(r.upserted)} rows merged, ${n(r.quarantined)} quarantined`;
  // The error may quote a server: one line, no escape sequences, whatever the run stored.
  return r.error ? `${head} | ${serverText(r.error, [], 2000)}` : head;
}

/**
 * Streams not read because another stream's answer stopped them (a rejected key, an unknown
 * project): one line per reason listing them, e.g. `demo/feedback, demo/searches: not read (the key
 * was rejected)`, instead of a line each repeating the reason.
 */
export function formatNotRead(runs: ProjectRunSummary[]): string[] {
  const byReason = new Map<string, string[]>();
  for (const r of runs) {
    const reason = serverText(r.error ?? 'not read', [], 2000);
    byReason.set(reason, [...(byReason.get(reason) ?? []), `${r.projectId}/${r.pipeline}`]);
  }
  return [...byReason].map(([reason, streams]) => `${streams.join(', ')}: ${reason}`);
}

/** An instant as ISO 8601 in UTC; a DuckDB timestamp string is read first. Empty for null. */
export function formatInstant(v: Date | string | null | undefined): string {
  if (v === null || v === undefined) return '';
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? String(v) : d.toISOString();
}

/** One project's run, short: for the scheduler's line per run. */
export function formatRunNote(r: ProjectRunSummary): string {
  const head = `${r.projectId}/${r.pipeline} ${r.status}, ${n(r.pages)} pages, ${n(r.upserted)} turns`;
  return r.error ? `${head}: ${r.error}` : head;
}

/**
 * A run's notes, one per stream, an error shared by several streams said once after them (an
 * organization's budget stop ends all its streams with one sentence: the line says it once, with
 * how many streams it stopped, not once per stream).
 */
export function formatRunNotes(runs: readonly ProjectRunSummary[]): string[] {
  const shared = new Map<string, number>();
  for (const r of runs) if (r.error) shared.set(r.error, (shared.get(r.error) ?? 0) + 1);
  const notes = runs.map((r) => (r.error && shared.get(r.error)! > 1 ? formatRunNote({ ...r, error: null }) : formatRunNote(r)));
  for (const [error, streams] of shared) if (streams > 1) notes.push(`${error} (${streams} streams)`);
  return notes;
}

const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A plain text table (for views and status). Long text is cut at 60 characters, a cell with a time never. */
export function formatTable(rows: Record<string, unknown>[], columns?: string[]): string {
  if (!rows.length) return '(no rows)';
  const cols = columns ?? Object.keys(rows[0]!);
  const cell = (v: unknown) => {
    if (v === null || v === undefined) return '';
    if (v instanceof Date) return v.toISOString();
    const s = typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(3) : String(v);
    const flat = s.replace(/\s+/g, ' ');
    return [...flat].length > 60 && !ISO_INSTANT.test(flat) ? `${[...flat].slice(0, 57).join('')}...` : flat;
  };
  // Padding by display width: CJK and emoji take two terminal columns.
  const body = rows.map((r) => cols.map((c) => cell(r[c])));
  const widths = cols.map((c, i) => Math.max(stringWidth(c), ...body.map((b) => stringWidth(b[i]!))));
  const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - stringWidth(text)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!)).join('  ').trimEnd();
  return [line(cols), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
