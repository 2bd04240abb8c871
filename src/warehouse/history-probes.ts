// The `history_probes` table (sql/migrations/0037-history-probes.sql): where a stream's history
// starts and how many records lie before the coverage, as probed once (src/sync/run/history-probe.ts).
// Beside the coverage store: the run writes it, status reads it.
import type { DuckDBConnection } from '@duckdb/node-api';

export interface HistoryProbe {
  /** Records older than `probeTo` when probed. */
  rows: number;
  probeTo: number;
  /** Start of the oldest week with a record (ms); null: no record before probeTo. */
  historyStart: number | null;
  probedAt: number;
  requests: number;
}

const ms = (v: unknown): number => (v instanceof Date ? v.getTime() : Date.parse(String(v)));

export async function readHistoryProbe(conn: DuckDBConnection, projectId: string, pipeline: string): Promise<HistoryProbe | null> {
  const r = (await conn.runAndReadAll(
    'SELECT probe_to, rows, history_start, probed_at, requests FROM history_probes WHERE project_id = $p AND pipeline = $n',
    { p: projectId, n: pipeline },
  )).getRowObjectsJS()[0];
  if (!r) return null;
  return {
    rows: Number(r.rows), probeTo: ms(r.probe_to), historyStart: r.history_start == null ? null : ms(r.history_start),
    probedAt: ms(r.probed_at), requests: Number(r.requests),
  };
}

export async function writeHistoryProbe(conn: DuckDBConnection, projectId: string, pipeline: string, p: HistoryProbe): Promise<void> {
  await conn.run(
    `INSERT OR REPLACE INTO history_probes (project_id, pipeline, probe_to, rows, history_start, probed_at, requests)
     VALUES ($p, $n, CAST($to AS TIMESTAMPTZ), $rows, CAST($start AS TIMESTAMPTZ), CAST($at AS TIMESTAMPTZ), $req)`,
    {
      p: projectId, n: pipeline, to: new Date(p.probeTo).toISOString(), rows: p.rows,
      start: p.historyStart === null ? null : new Date(p.historyStart).toISOString(), at: new Date(p.probedAt).toISOString(), req: p.requests,
    },
  );
}

/** Turns stored in [from, to) of a project: what the backfill read of a probed span so far. */
export async function turnsBetween(conn: DuckDBConnection, projectId: string, from: number, to: number): Promise<number> {
  if (to <= from) return 0;
  const r = await conn.runAndReadAll(
    'SELECT count(*) AS n FROM conversations WHERE project_id = $p AND occurred_at >= CAST($f AS TIMESTAMPTZ) AND occurred_at < CAST($t AS TIMESTAMPTZ)',
    { p: projectId, f: new Date(from).toISOString(), t: new Date(to).toISOString() },
  );
  return Number(r.getRowObjectsJS()[0]?.n ?? 0);
}
