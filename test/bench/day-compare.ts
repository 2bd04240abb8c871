// The day scenario's comparisons of a warehouse with the sandbox's ground truth, in DuckDB (millions
// of turns: never JS maps of objects). A scratch in-memory database holds the truth (appended from
// `truthKeys` columns) and a copy of the warehouse's keys; the published read snapshot is attached
// read-only only while copying, so the next run can replace it.
//
// Freshness after an earlier run is reconstructed from the final state: turns are never deleted and
// `first_seen_at` is the (virtual) instant of the merge that first stored a turn, so a turn was
// loaded after run k iff first_seen_at <= end of run k; its `visibleAt` is fixed by the sandbox.
// `crossCheck` repeats the computation on the truth and snapshot of one run's own instant.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { TruthKeys } from '../../src/tools/sandbox/index.js';
import type { CoverageRow } from './day-metrics.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Loaded share of the turns visible for 3 h and 10 min, over all history and the last 24 h. */
export interface Freshness {
  visible3h: number;
  loaded3h: number;
  visible10m: number;
  loaded10m: number;
  visible3hLast24h: number;
  loaded3hLast24h: number;
  visible10mLast24h: number;
  loaded10mLast24h: number;
}

export interface SettleCheck {
  /** Turns with a timestamp at or before this instant are old enough to have been settled. */
  cutoffMs: number;
  turns: number;
  /** Not in the warehouse; split by whether the coverage map says their time was read. */
  lost: number;
  lostInReadSpan: number;
  lostUnread: number;
  /** In the warehouse with another category or status than the sandbox's current version. */
  stale: number;
  staleCategory: number;
  staleStatus: number;
  /** Keys stored more than once (among the old-enough turns, and in the whole table). */
  duplicated: number;
  duplicatedAll: number;
  /** Warehouse keys the sandbox never served (all ages). */
  phantom: number;
}

export class Scratch {
  private constructor(private readonly instance: DuckDBInstance, private readonly conn: DuckDBConnection) {}

  static async open(): Promise<Scratch> {
    const instance = await DuckDBInstance.create(':memory:', {
      memory_limit: '4GB', threads: '2', autoinstall_known_extensions: 'false', autoload_known_extensions: 'true',
    });
    const conn = await instance.connect();
    await conn.run("SET TimeZone = 'UTC'");
    return new Scratch(instance, conn);
  }

  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }

  /** Replaces `table` with the truth's columns: (id, ts, visible_at) in ms, category, status. */
  async loadTruth(table: string, k: TruthKeys): Promise<void> {
    await this.conn.run(`CREATE OR REPLACE TABLE ${table}_raw (id VARCHAR, ts DOUBLE, visible_at DOUBLE, category VARCHAR, status VARCHAR)`);
    const app = await this.conn.createAppender(`${table}_raw`);
    for (let i = 0; i < k.count; i++) {
      app.appendVarchar(k.id[i]!);
      app.appendDouble(k.timestampMs[i]!);
      app.appendDouble(k.visibleAt[i]!);
      const c = k.queryCategory[i];
      if (c === null || c === undefined) app.appendNull();
      else app.appendVarchar(c);
      app.appendVarchar(k.resolutionStatus[i]!);
      app.endRow();
    }
    app.closeSync();
    await this.conn.run(`CREATE OR REPLACE TABLE ${table} AS
      SELECT id, CAST(ts AS BIGINT) AS ts, CAST(visible_at AS BIGINT) AS visible_at, category, status FROM ${table}_raw`);
    await this.conn.run(`DROP TABLE ${table}_raw`);
  }

  /** Runs `fn` with the snapshot attached read-only as `wh`. */
  async withSnapshot<T>(path: string, fn: () => Promise<T>): Promise<T> {
    await this.conn.run(`ATTACH '${path.replaceAll("'", "''")}' AS wh (READ_ONLY)`);
    try {
      return await fn();
    } finally {
      await this.conn.run('DETACH wh');
    }
  }

  /** The stream's coverage map (inside withSnapshot). */
  async coverage(projectId: string, pipeline: string): Promise<CoverageRow[]> {
    const r = await this.conn.runAndReadAll(
      `SELECT epoch_ms(range_from) AS f, epoch_ms(range_to) AS t, epoch_ms(read_at) AS r, settled
       FROM wh.coverage WHERE project_id = $p AND pipeline = $pl ORDER BY range_from`, { p: projectId, pl: pipeline });
    return r.getRowObjectsJS().map((x) => ({ from: Number(x.f), to: Number(x.t), readAt: Number(x.r), settled: Boolean(x.settled) }));
  }

  /** Copies the project's turns (key, first_seen_at, category, status) and coverage map (inside withSnapshot). */
  async copyWarehouse(table: string, projectId: string, pipeline: string): Promise<void> {
    await this.conn.run(`CREATE OR REPLACE TABLE ${table} AS
      SELECT id, epoch_ms(occurred_at) AS ts, epoch_ms(first_seen_at) AS first_seen, query_category AS category, resolution_status AS status
      FROM wh.conversations WHERE project_id = $p`, { p: projectId });
    await this.conn.run(`CREATE OR REPLACE TABLE ${table}_cov AS
      SELECT epoch_ms(range_from) AS f, epoch_ms(range_to) AS t FROM wh.coverage WHERE project_id = $p AND pipeline = $pl`,
    { p: projectId, pl: pipeline });
  }

  /** Freshness after each run (`ends`: the instant each run finished), from truth and warehouse tables. */
  async freshness(truth: string, rows: string, ends: readonly number[]): Promise<Freshness[]> {
    if (!ends.length) return [];
    const values = ends.map((e, i) => `(${i}, ${Math.round(e)})`).join(', ');
    const r = await this.conn.runAndReadAll(`
      WITH seen AS (SELECT id, ts, min(first_seen) AS first_seen FROM ${rows} GROUP BY id, ts),
      tw AS (SELECT t.ts, t.visible_at, s.first_seen FROM ${truth} t LEFT JOIN seen s ON s.id = t.id AND s.ts = t.ts),
      runs(k, e) AS (VALUES ${values})
      SELECT k,
        count(*) FILTER (WHERE visible_at <= e - ${3 * HOUR}) AS v3,
        count(*) FILTER (WHERE visible_at <= e - ${3 * HOUR} AND first_seen <= e) AS l3,
        count(*) FILTER (WHERE visible_at <= e - ${10 * MIN}) AS v10,
        count(*) FILTER (WHERE visible_at <= e - ${10 * MIN} AND first_seen <= e) AS l10,
        count(*) FILTER (WHERE ts >= e - ${24 * HOUR} AND visible_at <= e - ${3 * HOUR}) AS v3d,
        count(*) FILTER (WHERE ts >= e - ${24 * HOUR} AND visible_at <= e - ${3 * HOUR} AND first_seen <= e) AS l3d,
        count(*) FILTER (WHERE ts >= e - ${24 * HOUR} AND visible_at <= e - ${10 * MIN}) AS v10d,
        count(*) FILTER (WHERE ts >= e - ${24 * HOUR} AND visible_at <= e - ${10 * MIN} AND first_seen <= e) AS l10d
      FROM tw CROSS JOIN runs GROUP BY k ORDER BY k`);
    return r.getRowObjectsJS().map((x) => ({
      visible3h: Number(x.v3), loaded3h: Number(x.l3), visible10m: Number(x.v10), loaded10m: Number(x.l10),
      visible3hLast24h: Number(x.v3d), loaded3hLast24h: Number(x.l3d), visible10mLast24h: Number(x.v10d), loaded10mLast24h: Number(x.l10d),
    }));
  }

  /** Lost, stale and duplicated turns among those with a timestamp <= cutoff (copyWarehouse made `rows` and `rows`_cov). */
  async settleCheck(truth: string, rows: string, cutoffMs: number): Promise<SettleCheck> {
    const cut = Math.round(cutoffMs);
    const r = await this.conn.runAndReadAll(`
      WITH j AS (
        SELECT t.id, t.ts, count(w.id) AS n,
          count(w.id) FILTER (WHERE w.category IS DISTINCT FROM t.category) AS bad_category,
          count(w.id) FILTER (WHERE w.status IS DISTINCT FROM t.status) AS bad_status
        FROM ${truth} t LEFT JOIN ${rows} w ON w.id = t.id AND w.ts = t.ts
        WHERE t.ts <= ${cut} GROUP BY t.id, t.ts
      ), lost AS (
        SELECT j.ts, EXISTS (SELECT 1 FROM ${rows}_cov c WHERE j.ts >= c.f AND j.ts < c.t) AS in_read_span FROM j WHERE n = 0
      )
      SELECT
        (SELECT count(*) FROM j) AS turns,
        (SELECT count(*) FROM lost) AS lost,
        (SELECT count(*) FROM lost WHERE in_read_span) AS lost_read,
        (SELECT count(*) FROM j WHERE n > 0 AND (bad_category > 0 OR bad_status > 0)) AS stale,
        (SELECT count(*) FROM j WHERE bad_category > 0) AS stale_category,
        (SELECT count(*) FROM j WHERE bad_status > 0) AS stale_status,
        (SELECT count(*) FROM j WHERE n > 1) AS duplicated,
        (SELECT count(*) FROM (SELECT 1 FROM ${rows} GROUP BY id, ts HAVING count(*) > 1)) AS duplicated_all,
        (SELECT count(*) FROM ${rows} w ANTI JOIN ${truth} t ON t.id = w.id AND t.ts = w.ts) AS phantom`);
    const x = r.getRowObjectsJS()[0]!;
    const lost = Number(x.lost);
    const lostInReadSpan = Number(x.lost_read);
    return {
      cutoffMs: cut, turns: Number(x.turns), lost, lostInReadSpan, lostUnread: lost - lostInReadSpan,
      stale: Number(x.stale), staleCategory: Number(x.stale_category), staleStatus: Number(x.stale_status),
      duplicated: Number(x.duplicated), duplicatedAll: Number(x.duplicated_all), phantom: Number(x.phantom),
    };
  }

  async dropTables(...tables: string[]): Promise<void> {
    for (const t of tables) await this.conn.run(`DROP TABLE IF EXISTS ${t}`);
  }
}
