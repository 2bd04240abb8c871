// buildReport: the documentation-gaps report of one warehouse connection as one HTML string. The
// caller opens the warehouse (read-only) and decides where the file goes (write-report.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../../core/errors.js';
import { reportPeriod, type ReportPeriod } from './period.js';
import { readReportData, readScope, type ReportData, type Scope } from './report-data.js';
import { DEFAULT_TIME_ZONE } from '../../core/time-zone.js';
import { renderPage } from './render-page.js';

export interface ReportOptions {
  /** One project; undefined = every project the warehouse knows, summed. */
  projectId?: string;
  /** Length of the period, rounded up to whole days (`--since`). */
  sinceMs: number;
  /** The report's "now": the period ends with its day in the projects' zone (today so far included). */
  now: Date;
  /** Named in the page's footer and generator tag. */
  generator?: string;
}

export interface BuiltReport {
  html: string;
  period: ReportPeriod;
  data: ReportData;
}

/**
 * The zone of the report's days: the one its projects' views count days in. Projects in different
 * zones are never summed on one axis (their "days" are different spans of time): that is a usage
 * error naming the zones, and a report per project (--project) is the way.
 */
export function reportTimeZone(scope: Scope, projectId: string | null): string {
  const inScope = scope.known.filter((k) => projectId === null || k.projectId === projectId);
  const zones = [...new Set(inScope.map((k) => k.timeZone))].sort();
  if (zones.length > 1) {
    const list = zones.map((z) => `${z} (${inScope.filter((k) => k.timeZone === z).map((k) => k.projectId).join(', ')})`).join(', ');
    throw new UsageError(`the warehouse's projects count their days in different time zones: ${list}; a report sums days on one axis: write one per project with --project ID`);
  }
  return zones[0] ?? DEFAULT_TIME_ZONE;
}

export async function buildReport(conn: DuckDBConnection, opts: ReportOptions): Promise<BuiltReport> {
  const scope = await readScope(conn);
  const projectId = opts.projectId ?? null;
  if (projectId !== null && scope.known.length > 0 && !scope.known.some((k) => k.projectId === projectId)) {
    throw new UsageError(`project "${projectId}" is not in the warehouse (it has: ${scope.known.map((k) => k.projectId).join(', ')})`);
  }
  const period = reportPeriod(opts.now, opts.sinceMs, reportTimeZone(scope, projectId));
  const data = await readReportData(conn, scope, projectId, period);
  const html = renderPage({ data, period, now: opts.now, projectId, generator: opts.generator ?? 'docs-etl' });
  return { html, period, data };
}
