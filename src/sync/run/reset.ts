// `docs-etl reset --project P`: forget a project (its rows, quarantine, coverage, checkpoint and
// landed pages; the run history stays), or with --from, read it again from that date on (the
// coverage after it is dropped, so the next sync backfills it; stored rows stay and are updated).
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quoting.js';
import type { Clock } from '../../core/clock.js';
import { UsageError } from '../../core/errors.js';
import type { CoverageInterval } from '../../core/intervals.js';
import { LandingZone } from '../land/landing-zone.js';
import { readCoverage, writeCoverage } from '../../warehouse/coverage-store.js';
import { inTransaction, openWarehouse } from '../../warehouse/warehouse.js';
import { acquireWriterLock } from '../../warehouse/writer-lock.js';
import type { LocalConfig } from '../../config/sync-config.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import { publishRead } from '../publish/read-surface.js';
import { SURFACE_LAKE_TABLES } from './surface-lake-tables.js';

export interface ResetRequest {
  projectId: string;
  pipelines: readonly PipelineDefinition[];
  /** null: forget the project; a date: read it again from there. */
  from: Date | null;
}

export interface ResetEffect {
  pipeline: string;
  rows: number;
  coverageMs: number;
  landedPages: number;
}

/** What a reset would touch (for the confirmation), without changing anything. */
export async function describeReset(cfg: LocalConfig, r: ResetRequest): Promise<ResetEffect[]> {
  return withWarehouse(cfg, 'docs-etl reset', null, async (conn, zone) => {
    const out: ResetEffect[] = [];
    for (const p of r.pipelines) {
      const table = p.tables[0]!;
      const rows = Number((await conn.runAndReadAll(`SELECT count(*) FROM ${quotedIdentifier(table)} WHERE project_id = $p`, { p: r.projectId })).getRows()[0]![0]);
      const map = await readCoverage(conn, r.projectId, p.name);
      const real = fromOldestRecord(map, rows ? await oldestRecordMs(conn, p, r.projectId) : null);
      out.push({
        pipeline: p.name, rows, landedPages: zone.list({ projectId: r.projectId, pipeline: p.name }).length,
        coverageMs: cut(real, r.from).dropped,
      });
    }
    if (out.every((e) => e.rows === 0 && e.coverageMs === 0 && e.landedPages === 0)) {
      throw new UsageError(`project "${r.projectId}" has nothing in ${cfg.warehouse} to reset`);
    }
    return out;
  });
}

export async function runReset(deps: { clock: Clock }, cfg: LocalConfig, r: ResetRequest): Promise<void> {
  await withWarehouse(cfg, 'docs-etl reset', deps.clock, async (conn, zone) => {
    await inTransaction(conn, async () => {
      for (const p of r.pipelines) {
        const map = await readCoverage(conn, r.projectId, p.name);
        if (r.from === null) {
          for (const t of p.tables) await conn.run(`DELETE FROM ${quotedIdentifier(t)} WHERE project_id = $p`, { p: r.projectId });
          const where = 'WHERE project_id = $p AND pipeline = $pl';
          for (const t of ['coverage', 'sync_state', 'sync_windows']) await conn.run(`DELETE FROM ${quotedIdentifier(t)} ${where}`, { p: r.projectId, pl: p.name });
          await conn.run('DELETE FROM quarantine WHERE project_id = $p AND coalesce(pipeline, $pl) = $pl', { p: r.projectId, pl: p.name });
        } else {
          await writeCoverage(conn, r.projectId, p.name, cut(map, r.from).kept);
          // An open window reaching past the date is read again from its start by the planner's new windows.
          await conn.run(`UPDATE sync_state SET window_from = NULL, window_to = NULL, window_id = NULL, window_purpose = NULL, cursor = NULL,
            "offset" = NULL, pages = 0, rows = 0, window_new = 0, window_changed = 0, high_water = CAST($hw AS TIMESTAMPTZ)
            WHERE project_id = $p AND pipeline = $pl AND (window_to > CAST($from AS TIMESTAMPTZ) OR high_water > CAST($from AS TIMESTAMPTZ))`,
          { p: r.projectId, pl: p.name, from: r.from.toISOString(), hw: r.from.toISOString() });
        }
      }
    });
    if (r.from === null) for (const p of r.pipelines) zone.forget({ projectId: r.projectId, pipeline: p.name });
  });
}

async function withWarehouse<T>(
  cfg: LocalConfig, command: string, clock: Clock | null,
  fn: (conn: Awaited<ReturnType<typeof openWarehouse>>['conn'], zone: LandingZone) => Promise<T>,
): Promise<T> {
  const lock = clock ? acquireWriterLock(cfg.warehouse, command, clock.now()) : null;
  const wh = await openWarehouse(cfg.warehouse, { ...cfg.duckdb, readPath: cfg.readPath, readOnly: !clock });
  try {
    const out = await fn(wh.conn, new LandingZone(cfg.landingDir));
    if (clock) await publishRead(wh.conn, wh.path, { ...cfg, lakeTables: SURFACE_LAKE_TABLES }, clock.now(), true);
    return out;
  } finally {
    wh.close();
    lock?.release();
  }
}

/**
 * Coverage as a person counts it: a stream whose history was read to its start holds an interval
 * from the epoch (nothing before it); that interval counts from the oldest stored record (or not
 * at all when none is stored), not from 1970.
 */
function fromOldestRecord(map: readonly CoverageInterval[], oldest: number | null): CoverageInterval[] {
  return map.flatMap((iv) => {
    if (iv.from > 0) return [iv];
    const from = oldest ?? iv.to;
    return from < iv.to ? [{ ...iv, from }] : [];
  });
}

/** Epoch ms of the oldest record of the stream (its first table's time column); null when none. */
async function oldestRecordMs(conn: DuckDBConnection, p: PipelineDefinition, projectId: string): Promise<number | null> {
  const table = p.tables[0]!;
  // A table without that column (none today) keeps the coverage as stored.
  const r = await conn.runAndReadAll(`SELECT epoch_ms(min(${quotedIdentifier(p.time.column)})::TIMESTAMPTZ) FROM ${quotedIdentifier(table)} WHERE project_id = $p`, { p: projectId }).catch(() => null);
  const v = r ? r.getRows()[0]?.[0] : 0;
  return v == null ? null : Number(v);
}

/** The coverage before `from` (kept) and how much event time after it is dropped (null: all). */
function cut(map: readonly CoverageInterval[], from: Date | null): { kept: CoverageInterval[]; dropped: number } {
  const at = from?.getTime() ?? -Infinity;
  const kept = map.filter((iv) => iv.from < at).map((iv) => (iv.to > at ? { ...iv, to: at, rows: null, settled: iv.settled } : iv));
  const span = (m: readonly CoverageInterval[]) => m.reduce((n, iv) => n + (iv.to - iv.from), 0);
  return { kept, dropped: span(map) - span(kept) };
}
