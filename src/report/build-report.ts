// buildReport: the documentation-gaps report of one warehouse connection as one HTML string. The
// caller opens the warehouse (read-only) and decides where the file goes (write-report.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../core/errors.js';
import { reportPeriod, type ReportPeriod } from './period.js';
import { readReportData, readScope, type ReportData } from './report-data.js';
import { renderPage } from './render-page.js';

export interface ReportOptions {
  /** One project; undefined = every project the warehouse knows, summed. */
  projectId?: string;
  /** Length of the period, rounded up to whole UTC days (`--since`). */
  sinceMs: number;
  /** The report's "now": the period ends with this UTC day (today so far included). */
  now: Date;
  /** Named in the page's footer and generator tag. */
  generator?: string;
}

export interface BuiltReport {
  html: string;
  period: ReportPeriod;
  data: ReportData;
}

export async function buildReport(conn: DuckDBConnection, opts: ReportOptions): Promise<BuiltReport> {
  const period = reportPeriod(opts.now, opts.sinceMs);
  const scope = await readScope(conn);
  const projectId = opts.projectId ?? null;
  if (projectId !== null && scope.known.length > 0 && !scope.known.some((k) => k.projectId === projectId)) {
    throw new UsageError(`project "${projectId}" is not in the warehouse (it has: ${scope.known.map((k) => k.projectId).join(', ')})`);
  }
  const data = await readReportData(conn, scope, projectId, period);
  const html = renderPage({ data, period, now: opts.now, projectId, generator: opts.generator ?? 'docs-etl' });
  return { html, period, data };
}
