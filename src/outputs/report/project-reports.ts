// The reports `schedule` writes after each sync: one file summing every project (`--report FILE`,
// only when they count days in one zone) or one file per project (`--report-dir DIR`).
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError, messageOf } from '../../core/errors.js';
import { writeReport, type WrittenReport } from './write-report.js';

export interface ReportProject {
  projectId: string;
  timezone: string;
}

/**
 * A report file name for a project id: the id percent-encoded (no slash, no shell or Windows
 * special character, no leading dot), so two ids never share a file and none leaves DIR.
 */
export function reportFileName(projectId: string): string {
  const safe = encodeURIComponent(projectId).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${safe.startsWith('.') ? `%2E${safe.slice(1)}` : safe}.html`;
}

/** `--report FILE` sums every project on one day axis: refused at start when their zones differ. */
export function checkOneZone(projects: readonly ReportProject[]): void {
  const zones = [...new Set(projects.map((p) => p.timezone))].sort();
  if (zones.length <= 1) return;
  const list = zones.map((z) => `${z} (${projects.filter((p) => p.timezone === z).map((p) => p.projectId).join(', ')})`).join(', ');
  throw new UsageError(`--report sums every project's days on one axis, but the projects count days in different time zones: ${list}; use --report-dir DIR for one report per project`);
}

export type ProjectReportOutcome = { projectId: string; written: WrittenReport } | { projectId: string; error: string };

/** One report per project into `dir` (each replaced atomically); a project that fails does not stop the others. */
export async function writeProjectReports(
  conn: DuckDBConnection, dir: string, projects: readonly ReportProject[], opts: { sinceMs: number; now: Date; generator: string },
): Promise<ProjectReportOutcome[]> {
  const out: ProjectReportOutcome[] = [];
  for (const p of projects) {
    try {
      out.push({ projectId: p.projectId, written: await writeReport(conn, join(dir, reportFileName(p.projectId)), { ...opts, projectId: p.projectId }) });
    } catch (err) {
      out.push({ projectId: p.projectId, error: messageOf(err) });
    }
  }
  return out;
}
