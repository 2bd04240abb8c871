// The Parquet lake export: the orchestrator used by `docs-etl export-parquet` and by the scheduler.
//
// A run, under the lake lock and inside one read transaction (all files come from one snapshot):
//   1. walk the lake: delete temp files a killed run left, list the data files that exist;
//   2. read the manifest and the warehouse's per-partition signatures (one query);
//   3. rewrite the partitions that are new, changed, missing a file, or all with --full
//      (each file: COPY to a temp name, flush, rename over the final name);
//   4. delete partitions the warehouse no longer has and orphan files no manifest names;
//   5. rewrite sync_runs / quarantine when their signature changed;
//   6. write the manifest last (temp + rename); also every CHECKPOINT_EVERY partitions, so a long
//      first export that is killed does not start over.
// A crash at any point leaves complete files only; the next run converges (rename is idempotent).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Clock } from '../core/clock.js';
import { FatalError, messageOf, StoppedError, UsageError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { sqlFile } from '../load/sql-files.js';
import { inTransaction } from '../load/warehouse.js';
import { fileCheck, planPartitions } from './export-plan.js';
import { emptySummary, type ExportSummary } from './export-summary.js';
import { scanLake, type LakeScan } from './lake-scan.js';
import { acquireLakeLock } from './lake-lock.js';
import { SMALL_TABLES } from './lake-layout.js';
import { emptyManifest, MANIFEST_VERSION, readManifest, writeManifest, type Manifest } from './manifest.js';
import { removeLakeFile, writePartition, writeSmallTable } from './partition-writer.js';
import { readPartitionSignatures, readTableSignatures } from './signatures.js';

export interface ExportDeps {
  /** A warehouse connection (read-only is enough) with no transaction open: the export opens its own. */
  conn: DuckDBConnection;
  logger: Logger;
  clock: Clock;
  /** Aborted: the partition in flight is finished, the manifest written, then StoppedError. */
  signal?: AbortSignal;
}

export interface ExportOptions {
  outDir: string;
  /** Rewrite every partition and table, whatever the manifest says. */
  full?: boolean;
  /** Only these projects' partitions are considered (others are left as they are); small tables are always whole. */
  projects?: readonly string[];
}

/** Partitions written between manifest checkpoints. */
const CHECKPOINT_EVERY = 64;

export async function exportLake(deps: ExportDeps, opts: ExportOptions): Promise<ExportSummary> {
  if (!opts.outDir.trim()) throw new UsageError('--out: a lake directory is required');
  const outDir = resolve(opts.outDir);
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (err) {
    throw new FatalError(`cannot create lake directory ${outDir}: ${messageOf(err)}`);
  }
  const started = deps.clock.now();
  const release = acquireLakeLock(outDir, started);
  try {
    const summary = await inTransaction(deps.conn, () => runExport(deps, { ...opts, outDir }));
    summary.durationMs = deps.clock.now().getTime() - started.getTime();
    deps.logger.info({ summary }, 'lake export finished');
    return summary;
  } finally {
    release();
  }
}

async function runExport(deps: ExportDeps, opts: ExportOptions): Promise<ExportSummary> {
  const { conn, logger, clock } = deps;
  const { outDir } = opts;
  const token = `${process.pid.toString(36)}-${randomBytes(4).toString('hex')}`;
  const scan = scanLake(outDir);
  if (scan.tempFilesRemoved.length) logger.info({ files: scan.tempFilesRemoved.length }, 'removed temp files of an interrupted export');

  const format = exportFormat();
  const previous = readManifest(outDir, logger);
  const formatChanged = previous !== null && previous.format !== format;
  if (formatChanged) logger.info({ was: previous.format, now: format }, 'lake format changed; rewriting the whole lake');
  // A format change rewrites everything, --project or not: one lake never mixes two file formats.
  const full = Boolean(opts.full) || formatChanged;
  const scope = opts.projects?.length && !formatChanged ? new Set(opts.projects) : null;
  const inScope = (projectId: string) => scope === null || scope.has(projectId);

  const current = (await readPartitionSignatures(conn)).filter((p) => inScope(p.projectId));
  const before = previous && !formatChanged ? previous.partitions : [];
  const plan = planPartitions({
    current, previous: before.filter((e) => inScope(e.projectId)), full, fileSize: (rel) => scan.files.get(rel),
  });
  logger.info(
    { outDir, partitions: current.length, write: plan.write.length, keep: plan.keep.length, remove: plan.remove.length, full, projects: opts.projects },
    'lake export plan',
  );

  const repairs = plan.write.filter((w) => w.reason === 'missing-file' || w.reason === 'damaged-file');
  if (repairs.length) {
    logger.warn(
      { partitions: repairs.length, first: `${repairs[0]!.partition.projectId}/${repairs[0]!.partition.date}`, reason: repairs[0]!.reason },
      'lake files missing or not the size they were written with: rewriting their partitions',
    );
  }
  const summary = emptySummary(outDir, full);
  const manifest: Manifest = {
    ...emptyManifest(format, clock.now()),
    partitions: [...before.filter((e) => !inScope(e.projectId)), ...plan.keep],
    tables: formatChanged ? {} : { ...previous?.tables },
  };
  const checkpoint = () => writeManifest(outDir, { ...manifest, updatedAt: clock.now().toISOString() }, token);

  for (const [i, { partition, reason }] of plan.write.entries()) {
    if (deps.signal?.aborted) {
      checkpoint();
      throw new StoppedError(`lake export stopped after ${i} of ${plan.write.length} partitions; the next export continues`);
    }
    const r = await writePartition(conn, outDir, partition, token, clock.now());
    manifest.partitions.push(r.entry);
    summary.partitions.written++;
    summary.rows.conversations += r.entry.files.conversations ? r.entry.rows : 0;
    summary.rows.sources += r.entry.files.sources ? r.entry.sourceRows : 0;
    summary.files.written += r.written.length;
    summary.files.removed += r.removed.length;
    summary.bytes += r.written.reduce((n, f) => n + f.bytes, 0);
    logger.debug({ projectId: partition.projectId, date: partition.date, reason, rows: r.entry.rows, sources: r.entry.sourceRows }, 'partition written');
    if ((i + 1) % CHECKPOINT_EVERY === 0) checkpoint();
  }
  summary.partitions.skipped = plan.keep.length;

  removeStale(outDir, manifest, plan.remove.length, scan, inScope, summary, logger);
  summary.partitions.total = current.length;

  for (const t of await readTableSignatures(conn)) {
    const prev = manifest.tables[t.name];
    if (!full && prev && prev.signature === t.signature && !fileCheck(scan.files.get(prev.file), prev.bytes)) continue;
    const r = await writeSmallTable(conn, outDir, t, token, clock.now());
    manifest.tables[t.name] = r.entry;
    summary.tablesWritten.push(t.name);
    summary.rows[t.name] += r.written.rows;
    summary.files.written++;
    summary.bytes += r.written.bytes;
  }

  // The manifest is rewritten only when the lake changed (a no-op export touches no file at all).
  const changed = summary.files.written + summary.files.removed > 0 || summary.partitions.removed > 0;
  if (changed || previous === null || formatChanged) checkpoint();
  summary.files.tempRemoved = scan.tempFilesRemoved.length;
  return summary;
}

/**
 * Deletes the files of partitions gone from the warehouse, and orphans: our data files in scope that
 * the new manifest does not name (e.g. written by a run killed before its manifest, then deleted
 * from the warehouse).
 */
function removeStale(
  outDir: string, manifest: Manifest, removedPartitions: number, scan: LakeScan,
  inScope: (projectId: string) => boolean, summary: ExportSummary, logger: Logger,
): void {
  const named = new Set(manifest.partitions.flatMap((e) => Object.values(e.files)));
  const stale = scan.partitionFiles.filter((f) => inScope(f.projectId) && !named.has(f.rel));
  for (const f of stale) {
    if (removeLakeFile(outDir, f.rel)) summary.files.removed++;
  }
  summary.partitions.removed = removedPartitions;
  if (stale.length) logger.info({ files: stale.length, partitions: removedPartitions }, 'removed partitions no longer in the warehouse');
}

/** Fingerprint of what the files contain (the export SQL and the manifest version). */
export function exportFormat(): string {
  const h = createHash('sha256').update(`manifest:${MANIFEST_VERSION}`);
  for (const t of ['conversations', 'sources', ...SMALL_TABLES]) h.update(sqlFile(`export/copy-${t.replaceAll('_', '-')}.sql`));
  return h.digest('hex').slice(0, 16);
}
