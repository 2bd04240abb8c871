// `docs-etl rebuild`: re-creates a project's tables from the kept raw pages (`--keep-raw`), with no
// API call: after a schema change or a bug fix, today's contract and SQL are applied to what the API
// sent. Each kept page is validated again and merged in replay mode (rows and quarantine; the
// checkpoint is left alone). Coverage the kept pages do not back is dropped, so the next sync reads
// it again; the result says how much.
import type { Clock } from '../../core/clock.js';
import { UsageError } from '../../core/errors.js';
import { quotedIdentifier } from '../../core/sql-quoting.js';
import type { CoverageInterval } from '../../core/intervals.js';
import type { Logger } from '../../core/logger.js';
import { splitLanded, type LandedFile } from '../pipeline/landed-page.js';
import { LandingZone, type Stream } from '../land/landing-zone.js';
import { readCoverage, writeCoverage } from '../../warehouse/coverage-store.js';
import { mergeBatch } from '../load/merge-batch.js';
import { inTransaction, openWarehouse } from '../../warehouse/warehouse.js';
import { Writer } from '../../warehouse/writer.js';
import { acquireWriterLock } from '../../warehouse/writer-lock.js';
import { strippedBody } from '../land/strip-records.js';
import { validateRecords } from '../normalize/validate-records.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import { fieldsOf } from '../pipeline/json-structure.js';
import { publishRead } from '../publish/read-surface.js';
import type { ReadSurface } from '../publish/read-surface-defaults.js';
import { SURFACE_LAKE_TABLES } from './surface-lake-tables.js';

export interface RebuildConfig {
  warehouse: string;
  landingDir: string;
  readPath: string;
  readSurface: ReadSurface;
  readGraceMs: number;
  duckdb: { memoryLimit: string; threads: number };
  /** Only these projects (null: every project with kept pages). */
  projects: string[] | null;
}

export interface RebuiltStream extends Stream {
  pages: number;
  rows: number;
  /** Event time the coverage map kept, and dropped (the next sync reads it again), ms. */
  coverageKeptMs: number;
  coverageDroppedMs: number;
}

const BATCH_PAGES = 50;

export async function runRebuild(
  deps: { clock: Clock; logger: Logger }, cfg: RebuildConfig, pipelines: readonly PipelineDefinition[],
): Promise<RebuiltStream[]> {
  const zone = new LandingZone(cfg.landingDir);
  const streams = zone.keptStreams().filter((s) => !cfg.projects || cfg.projects.includes(s.projectId));
  for (const p of cfg.projects ?? []) {
    if (!streams.some((s) => s.projectId === p)) {
      throw new UsageError(`no kept pages for project "${p}" in ${cfg.landingDir}: sync with --keep-raw (e.g. 30d) first`);
    }
  }
  if (!streams.length) throw new UsageError(`no kept pages in ${cfg.landingDir}: sync with --keep-raw (e.g. 30d) first`);
  const lock = acquireWriterLock(cfg.warehouse, 'docs-etl rebuild', deps.clock.now());
  const wh = await openWarehouse(cfg.warehouse, { ...cfg.duckdb, readPath: cfg.readPath });
  try {
    if (zone.streams().length) {
      throw new UsageError('landed pages are waiting to be merged: run `docs-etl sync` once (it merges them first), then rebuild');
    }
    const writer = new Writer(wh.conn);
    const replay = new LandingZone(`${cfg.landingDir}/replay`);
    const out: RebuiltStream[] = [];
    for (const s of streams) {
      const pipeline = pipelines.find((p) => p.name === s.pipeline);
      if (!pipeline) throw new UsageError(`kept pages of an unknown pipeline "${s.pipeline}"`);
      await writer.run(async (c) => {
        for (const t of pipeline.tables) await c.run(`DELETE FROM ${quotedIdentifier(t)} WHERE project_id = $p`, { p: s.projectId });
        await c.run('DELETE FROM quarantine WHERE project_id = $p AND coalesce(pipeline, $pl) = $pl', { p: s.projectId, pl: s.pipeline });
      });
      const windows = new Map<string, { from: number; to: number; first: boolean; last: boolean }>();
      let batch: LandedFile[] = [];
      let pages = 0;
      let rows = 0;
      const flush = async () => {
        if (!batch.length) return;
        const files = batch;
        batch = [];
        const now = new Date(files.at(-1)!.meta.fetched_at);
        const merged = await writer.run((c) => mergeBatch(c, [{ pipeline, files }], { now, rereads: [], replay: true }));
        rows += merged.rows;
        replay.release(files, false);
      };
      for (const kept of zone.kept(s)) {
        const { page, body } = splitLanded(kept.text, kept.path);
        const { invalid: _i, x: _x, valid: _v, ...meta } = page;
        if (page.repaired || page.stripped) {
          // A page repaired at merge (merge-rescue.ts) or landed with invalid records
          // (strip-records.ts): its body no longer holds the records; it is replayed as it is
          // (what was refused stays quarantined).
          batch.push(replay.land(page, body));
        } else {
          const parsed = JSON.parse(body) as Record<string, unknown>;
          const records = pipeline.recordsField === null ? [parsed] : ((parsed[pipeline.recordsField] as unknown[] | undefined) ?? []);
          const v = validateRecords(pipeline.record, fieldsOf(pipeline.record), records);
          const strip = v.invalid.length > 0;
          batch.push(replay.land({ ...meta, records: records.length, quarantined: v.invalid.length, ...v, ...(strip ? { stripped: true as const } : {}) },
            strip ? strippedBody(pipeline, body) : body));
        }
        const w = windows.get(meta.window.id) ?? { from: Date.parse(meta.window.from), to: Date.parse(meta.window.to), first: false, last: false };
        w.first ||= meta.request.cursor === null && meta.request.offset === null;
        w.last ||= meta.next.complete;
        windows.set(meta.window.id, w);
        pages++;
        if (batch.length >= BATCH_PAGES) await flush();
      }
      await flush();
      // Coverage stays where a kept window was read whole (its first and last page are kept).
      const whole = [...windows.values()].filter((w) => w.first && w.last);
      const { kept, dropped } = await writer.run(async (c) => {
        const map = await readCoverage(c, s.projectId, s.pipeline);
        const next = intersect(map, whole);
        await inTransaction(c, () => writeCoverage(c, s.projectId, s.pipeline, next));
        const total = (m: readonly CoverageInterval[]) => m.reduce((n, iv) => n + (iv.to - iv.from), 0);
        return { kept: total(next), dropped: total(map) - total(next) };
      });
      out.push({ ...s, pages, rows, coverageKeptMs: kept, coverageDroppedMs: dropped });
      deps.logger.info({ projectId: s.projectId, pipeline: s.pipeline, pages, rows }, 'rebuilt from kept pages');
    }
    await writer.run((c) => publishRead(c, wh.path, { ...cfg, lakeTables: SURFACE_LAKE_TABLES }, deps.clock.now(), true));
    return out;
  } finally {
    wh.close();
    lock.release();
  }
}

/**
 * The parts of the coverage map inside the union of these windows. Each part keeps its interval's
 * read ages, reads and settled flag (rebuilding settles nothing: a re-read still due stays due), and
 * parts of different intervals are never joined: joining them would give the whole map the first
 * interval's `settled` and `readAt`, and the rechecks and settle reads still due would be lost.
 */
export function intersect(map: readonly CoverageInterval[], windows: readonly { from: number; to: number }[]): CoverageInterval[] {
  const spans = union(windows);
  const out: CoverageInterval[] = [];
  for (const iv of map) {
    for (const w of spans) {
      const from = Math.max(iv.from, w.from);
      const to = Math.min(iv.to, w.to);
      // A whole interval keeps its row count (an empty one marks where history ran out).
      if (from < to) out.push({ ...iv, from, to, rows: from === iv.from && to === iv.to ? iv.rows : null });
    }
  }
  return out.sort((a, b) => a.from - b.from);
}

/** The windows as disjoint spans (a head overlaps the previous head's end). */
function union(windows: readonly { from: number; to: number }[]): { from: number; to: number }[] {
  const joined: { from: number; to: number }[] = [];
  for (const w of [...windows].sort((a, b) => a.from - b.from)) {
    const last = joined.at(-1);
    if (last && w.from <= last.to) last.to = Math.max(last.to, w.to);
    else joined.push({ from: w.from, to: w.to });
  }
  return joined;
}
