// Human summaries for stdout (logs are JSON on stderr).
import stringWidth from 'string-width';
import type { ProjectRunSummary } from '../run/sync-project.js';
import { serverText } from '../core/server-text.js';

const n = (x: number) => x.toLocaleString('en-US');

export function formatRunLine(r: ProjectRunSummary): string {
  const w = r.windows.at(-1);
  const window = w ? `${w.from?.toISOString() ?? 'beginning'} → ${w.to.toISOString()}` : 'no window';
  const head = `${r.projectId}: ${r.status} | ${window} | ${n(r.pages)} pages, ${n(r.requests)} requests, ${n(r.upserted)} turns upserted, ${n(r.quarantined)} quarantined`;
  // The error may quote a server: one line, no escape sequences, whatever the run stored.
  return r.error ? `${head} | ${serverText(r.error, [], 2000)}` : head;
}

/** A plain text table (for views and status). */
export function formatTable(rows: Record<string, unknown>[], columns?: string[]): string {
  if (!rows.length) return '(no rows)';
  const cols = columns ?? Object.keys(rows[0]!);
  const cell = (v: unknown) => {
    if (v === null || v === undefined) return '';
    if (v instanceof Date) return v.toISOString();
    const s = typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(3) : String(v);
    const flat = s.replace(/\s+/g, ' ');
    return [...flat].length > 60 ? `${[...flat].slice(0, 57).join('')}...` : flat;
  };
  // Padding by display width: CJK and emoji take two terminal columns.
  const body = rows.map((r) => cols.map((c) => cell(r[c])));
  const widths = cols.map((c, i) => Math.max(stringWidth(c), ...body.map((b) => stringWidth(b[i]!))));
  const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - stringWidth(text)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!)).join('  ').trimEnd();
  return [line(cols), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
