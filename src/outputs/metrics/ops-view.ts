// What the metrics show, read once from a warehouse or read snapshot: `status --json`'s Status and
// `status --check`'s verdict (the same functions, so the values are equal), plus the counters the
// warehouse keeps (rows, API responses, run durations). One source of truth for the /metrics
// endpoint, the textfile and the alerts.
import type { DuckDBConnection } from '@duckdb/node-api';
import { collectStatus, type Status, type StatusInput } from '../status/collect-status.js';
import { checkVerdict, type CheckOptions, type Verdict } from '../status/check-verdict.js';
import { sqlFile } from '../../warehouse/sql-files.js';

export interface StreamTotals {
  project_id: string; pipeline: string; organization: string;
  rows_merged: number; rows_quarantined: number; last_success_ms: number | null; deferred: number; rate_limited: number;
}
export interface ResponseCount { project_id: string; pipeline: string; organization: string; endpoint: string; code: string; requests: number }
export interface RunDuration { run_id: string; project_id: string; pipeline: string; organization: string; seconds: number }

export interface OpsView {
  status: Status;
  verdict: Verdict;
  totals: StreamTotals[];
  responses: ResponseCount[];
  durations: RunDuration[];
}

export async function readOpsView(input: StatusInput, check: CheckOptions): Promise<OpsView> {
  const status = await collectStatus(input);
  const verdict = await checkVerdict(input.conn, input.clock, status, check);
  return { status, verdict, ...(await readCounters(input.conn)) };
}

async function rows(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

export async function readCounters(conn: DuckDBConnection): Promise<Pick<OpsView, 'totals' | 'responses' | 'durations'>> {
  const totals = (await rows(conn, sqlFile('ops/stream-totals.sql'))).map((r) => ({
    project_id: String(r.project_id), pipeline: String(r.pipeline), organization: String(r.organization),
    rows_merged: Number(r.rows_merged), rows_quarantined: Number(r.rows_quarantined),
    last_success_ms: r.last_success_ms == null ? null : Number(r.last_success_ms), deferred: Number(r.deferred), rate_limited: Number(r.rate_limited),
  }));
  const responses = (await rows(conn, 'SELECT * FROM api_responses ORDER BY ALL')).map((r) => ({
    project_id: String(r.project_id), pipeline: String(r.pipeline), organization: String(r.organization),
    endpoint: String(r.endpoint), code: String(r.code), requests: Number(r.requests),
  }));
  const durations = (await rows(conn, sqlFile('ops/run-durations.sql'))).map((r) => ({
    run_id: String(r.run_id), project_id: String(r.project_id), pipeline: String(r.pipeline), organization: String(r.organization), seconds: Number(r.seconds),
  }));
  return { totals, responses, durations };
}
