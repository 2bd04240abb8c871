// Parked windows in `status`, `status --json` and `status --check` (issue 33, item 7): a window
// the API paged without end is not read again before its retry; status names it and when.
import type { DuckDBConnection } from '@duckdb/node-api';
import { streamKey } from '../../sync/pipeline/definition.js';

export interface ParkedStatus {
  from: string;
  to: string;
  purpose: string | null;
  reason: string;
  parked_at: string;
  attempts: number;
  retry_at: string;
}

const iso = (v: unknown): string => (v instanceof Date ? v : new Date(String(v))).toISOString();

/** Parked windows by `project\0pipeline` (none in a snapshot published before the table existed; in a catalog snapshot it is a view). */
export async function readParkedStatus(conn: DuckDBConnection): Promise<Map<string, ParkedStatus>> {
  const exists = (await conn.runAndReadAll("SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'parked_windows'")).getRows()[0]?.[0];
  if (!Number(exists)) return new Map();
  const rows = (await conn.runAndReadAll('SELECT * FROM parked_windows ORDER BY project_id, pipeline')).getRowObjectsJS();
  return new Map(rows.map((r) => [streamKey(String(r.project_id), String(r.pipeline)), {
    from: iso(r.window_from), to: iso(r.window_to), purpose: (r.purpose as string | null) ?? null, reason: String(r.reason),
    parked_at: iso(r.parked_at), attempts: Number(r.attempts), retry_at: iso(r.retry_at),
  }]));
}

/** The line status prints (as a warning) and `--check` reports. */
export function parkedLine(p: ParkedStatus): string {
  return `parked: window ${`${p.purpose ?? ''} ${p.from} → ${p.to}`.trim()} (${p.reason}) since ${p.parked_at}; retried after ${p.retry_at} (attempt ${p.attempts})`;
}
