// The Parquet lake export: the orchestrator used by `docs-etl export-parquet`, `sync --lake` and
// `schedule --lake`. It knows no table by name: the declared tables (src/sync/pipeline/lake-table.ts)
// are passed in.
//
// A run, under the lake's lock and inside one read transaction (all files come from one snapshot):
//   1. list the lake's objects (a local lake also drops temp files a killed run left);
//   2. read the manifest; per table, the warehouse's per-file signatures (one query each);
//   3. write the files that are new, changed, missing, damaged, or all with --full / a new format
//      (local: COPY to a temp name, rename over part-0.parquet; S3: COPY to staging, upload under
//      a new key);
//   4. write the manifest: the commit point (also every CHECKPOINT_EVERY files, so a long first
//      export that is killed does not start over);
//   5. only then delete what the manifest no longer names: replaced and removed files, and
//      orphans (data files under a declared table's directory that no manifest names, e.g. the
//      uploads of a killed run). The lock keeps a concurrent exporter's in-flight files safe.
// A crash at any point leaves the previous manifest valid; the next run converges.
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Clock } from '../../core/clock.js';
import { messageOf, StoppedError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { inTransaction } from '../../warehouse/warehouse.js';
import type { LakeTable } from '../../sync/pipeline/lake-table.js';
import { entryPartition, planFiles } from './export-plan.js';
import { emptySummary, type ExportSummary } from './export-summary.js';
import { unescapeHiveValue } from '../../warehouse/partition-files.js';
import { checkDeclaration, partitionId } from './lake-layout.js';
import { deadlineError, lakeDeadlines } from './lake-deadlines.js';
import { openLakeStorage } from './lake-location.js';
import type { LakeStorage } from './lake-storage.js';
import { emptyManifest, MANIFEST_VERSION, readManifest, writeManifest, type FileEntry, type Manifest } from './manifest.js';
import { ownedDataKey, tablesByName, trustedManifest } from './owned-keys.js';
import { writeFile } from './partition-writer.js';
import { readFileSignatures, tableFormat } from './signatures.js';
import { withIcebergLake, type IcebergLake } from './iceberg/iceberg-lake.js';

export interface ExportDeps {
  /** A warehouse connection (read-only is enough) with no transaction open: the export opens its own. */
  conn: DuckDBConnection;
  logger: Logger;
  clock: Clock;
  /** Every table the lake holds (src/cli/lake-tables.ts: LAKE_TABLES). */
  tables: readonly LakeTable[];
  /** For an s3:// lake: the AWS configuration (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Aborted: the file in flight is finished, the manifest written, then StoppedError. */
  signal?: AbortSignal;
  /**
   * Object storage: the folder files are staged in before upload (staging-dir.ts), e.g.
   * `<warehouse dir>/lake-staging`; default the system temp folder.
   */
  stagingDir?: string;
  /** Iceberg snapshots replaced less than this long ago stay readable (default 24 h: iceberg/iceberg-lake.ts). */
  readGraceMs?: number;
}

export interface ExportOptions {
  /** The lake: a local directory or s3://bucket/prefix. */
  outDir: string;
  /** Rewrite every file, whatever the manifest says. */
  full?: boolean;
  /** Only these projects' files are considered (others are left as they are); tables without a project level are always whole. */
  projects?: readonly string[];
}

/** The staging folder of a warehouse's exports to object storage: beside it, in its state folder. */
export function lakeStagingDir(warehouse: string): string {
  return join(dirname(warehouse), 'lake-staging');
}

/** Files written between manifest checkpoints. */
const CHECKPOINT_EVERY = 64;

export async function exportLake(deps: ExportDeps, opts: ExportOptions): Promise<ExportSummary> {
  for (const t of deps.tables) checkDeclaration(t);
  const env = deps.env ?? process.env;
  // The whole export's deadline (lake-deadlines.ts): S3 calls in flight are aborted with it.
  const { exportMs } = lakeDeadlines(env);
  const deadline = { signal: AbortSignal.timeout(exportMs), error: () => deadlineError(opts.outDir, exportMs) };
  const storage = await openLakeStorage(opts.outDir, env, '--out', deps.stagingDir, deadline);
  try {
    const started = deps.clock.now();
    const release = await storage.lock(started);
    let failed = false;
    try {
      const summary = await inTransaction(deps.conn, () => withIcebergLake(deps, opts.outDir, (iceberg) => runExport(deps, storage, opts, deadline, iceberg)));
      summary.durationMs = deps.clock.now().getTime() - started.getTime();
      deps.logger.info({ summary }, 'lake export finished');
      return summary;
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // The error reported is the one that stopped the export: a release that fails after it (the
      // same revoked credentials, say) is logged, never put in its place.
      await release().catch((err: unknown) => {
        if (!failed) throw err;
        deps.logger.warn({ location: storage.location, err: messageOf(err) }, 'lake lock not released after the failed export');
      });
    }
  } finally {
    await storage.close();
  }
}

async function runExport(deps: ExportDeps, storage: LakeStorage, opts: ExportOptions, deadline: { signal: AbortSignal; error: () => Error }, iceberg: IcebergLake): Promise<ExportSummary> {
  const { conn, logger, clock } = deps;
  const token = `${process.pid.toString(36)}-${randomBytes(4).toString('hex')}`;
  let seq = 0;
  const unique = () => `${clock.now().getTime().toString(36)}-${randomBytes(4).toString('hex')}-${(++seq).toString(36)}`;
  const tableNames = new Set(deps.tables.map((t) => t.name));
  const listing = await storage.list([...tableNames]);
  if (listing.tempRemoved) logger.info({ files: listing.tempRemoved }, 'removed temp files of an interrupted export');
  const sizes = new Map(listing.objects.map((o) => [o.key, o.bytes]));

  // A manifest naming anything but our own data files is not used, and nothing is deleted this run.
  const owned = tablesByName(deps.tables);
  const { previous, untrusted } = trustedManifest(await readManifest(storage, logger), owned, logger, storage.location);
  const full = Boolean(opts.full);
  const scope = opts.projects?.length ? new Set(opts.projects) : null;
  const summary = emptySummary(storage.location, full);

  // The manifest in progress: every entry naming a complete file, by partition. Entries of files not
  // rewritten yet stay (their objects still exist), so a checkpoint is always a valid manifest.
  const entries = new Map<string, FileEntry>((previous?.files ?? []).map((e) => [partitionId(e.table, entryPartition(e)), e]));
  const manifest: Manifest = { ...emptyManifest(clock.now()), tables: { ...previous?.tables } };
  const snapshot = (): Manifest => ({ ...manifest, updatedAt: clock.now().toISOString(), files: [...entries.values()] });
  const checkpoint = async () => {
    await storage.confirmLock?.(clock.now());
    await writeManifest(storage, snapshot(), token);
  };
  const superseded: string[] = [];
  let written = 0;

  // Plan every table first (one signature query each), then write: the plan's size is known.
  const plans = [];
  for (const t of deps.tables) {
    const format = tableFormat(t, MANIFEST_VERSION);
    const prevTable = previous?.tables[t.name];
    const formatChanged = prevTable !== undefined && prevTable.format !== format;
    if (formatChanged) logger.info({ table: t.name }, 'lake table format changed; rewriting all its files');
    // A format change rewrites the whole table, --project or not: one table never mixes two formats.
    const whole = t.layout.by === 'none' || formatChanged;
    const inScope = (projectId: string | null) => whole || scope === null || scope.has(projectId ?? '');
    const current = (await readFileSignatures(conn, t)).filter((p) => inScope(p.projectId));
    const before = [...entries.values()].filter((e) => e.table === t.name && inScope(e.partition.project_id ?? null));
    const plan = planFiles({ table: t.name, current, previous: before, full: full || formatChanged, sizeOf: (k) => sizes.get(k) });
    logger.debug({ table: t.name, files: current.length, write: plan.write.length, keep: plan.keep.length, remove: plan.remove.length }, 'lake table plan');
    const repair = plan.write.find((w) => w.reason === 'missing-file' || w.reason === 'damaged-file');
    if (repair) {
      logger.warn({ table: t.name, key: repair.previous?.key, reason: repair.reason }, 'lake file missing or not the size it was written with: rewriting it');
    }
    plans.push({ t, format, plan, whole });
    summary.partitions.total += current.length;
  }
  const toWrite = plans.reduce((n, p) => n + p.plan.write.length, 0);
  logger.info({ location: storage.location, files: summary.partitions.total, write: toWrite, full, projects: opts.projects }, 'lake export plan');

  for (const { t, format, plan } of plans) {
    for (const w of plan.write) {
      if (deadline.signal.aborted) {
        await checkpoint().catch(() => {}); // on S3 the deadline aborts this too: the next export redoes these files
        throw deadline.error();
      }
      if (deps.signal?.aborted) {
        await checkpoint();
        throw new StoppedError(`lake export stopped after ${written} of ${toWrite} file(s); the next export continues`);
      }
      const entry = await writeFile(conn, storage, t, w.partition, token, unique, clock.now(), iceberg.fileHooks(conn, t));
      entries.set(partitionId(t.name, w.partition), entry);
      if (w.previous && w.previous.key !== entry.key) superseded.push(w.previous.key);
      summary.partitions.written++;
      summary.files.written++;
      summary.rows[t.name] = (summary.rows[t.name] ?? 0) + entry.rows;
      summary.bytes += entry.bytes;
      if (!summary.tablesWritten.includes(t.name)) summary.tablesWritten.push(t.name);
      logger.debug({ table: t.name, key: entry.key, reason: w.reason, rows: entry.rows }, 'lake file written');
      if (++written % CHECKPOINT_EVERY === 0) await checkpoint();
    }
    for (const e of plan.remove) {
      entries.delete(partitionId(t.name, entryPartition(e)));
      superseded.push(e.key);
    }
    summary.partitions.skipped += plan.keep.length;
    summary.partitions.removed += plan.remove.length;
    // The table's new format is recorded only once all its files are written in it.
    manifest.tables[t.name] = { layout: t.layout.by, format };
  }

  // Orphans: our data files under a declared table that the new manifest does not name (uploads of
  // a killed run, files of an older manifest version). Only under the lock: nobody else is writing.
  // With --project, a file of another project is never an orphan of this run: it may be named by no
  // manifest only because the previous one is unreadable or of an older version, and the export
  // that covers its project rewrites and sweeps it.
  const named = new Set([...entries.values()].map((e) => e.key));
  const rewrittenWhole = new Set(plans.filter((p) => p.whole).map((p) => p.t.name));
  const outOfScope = (k: string) => {
    if (scope === null || rewrittenWhole.has(k.split('/')[0]!)) return false;
    const m = /\/project_id=([^/]*)\//.exec(k);
    return m !== null && !scope.has(unescapeHiveValue(m[1]!));
  };
  const candidates = untrusted ? [] : [...new Set([...superseded, ...listing.objects.map((o) => o.key)])]
    .filter((k) => ownedDataKey(k, owned) && !named.has(k) && !outOfScope(k));
  // Replaced files an Iceberg snapshot still names stay candidates on later runs: only dropping a manifest entry changes the manifest.
  const previousKeys = new Set(previous?.files.map((e) => e.key));
  const changed = written > 0 || candidates.some((k) => previousKeys.has(k)) || previous === null
    || JSON.stringify(previous.tables) !== JSON.stringify(manifest.tables);
  if (changed) await checkpoint();
  // Iceberg snapshots derived from the manifest just written; then only what no snapshot within readGrace names goes.
  summary.iceberg = await iceberg.commit([...entries.values()], clock.now().getTime(),
    scope === null ? undefined : (table, projectId) => !rewrittenWhole.has(table) && !scope.has(projectId));
  const stale = await iceberg.deletable(candidates);
  if (stale.length) {
    await storage.confirmLock?.(clock.now());
    summary.files.removed = await storage.delete(stale);
    logger.info({ files: stale.length }, 'removed lake files no manifest names (replaced, deleted from the warehouse, or left by an interrupted export)');
  }
  summary.files.tempRemoved = listing.tempRemoved;
  return summary;
}

