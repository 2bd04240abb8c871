// Warehouse writes of the static export. The warehouse is opened for each write and closed right
// after, so a long poll does not hold DuckDB's single-writer lock away from `sync`. Each write takes
// docs-etl's writer lock (waiting for a running sync to finish), and the finished export publishes
// the read snapshot, so readers (the report, BI tools) see the new page inventory at once.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Clock } from '../core/clock.js';
import type { StaticExportJob } from '../contracts/static-export.js';
import { openWarehouse, inTransaction } from '../warehouse/warehouse.js';
import { sqlFile } from '../warehouse/sql-files.js';
import { waitForWriterLock } from '../warehouse/writer-lock.js';
import { publishRead, type PublishSettings } from '../sync/publish/read-surface.js';
import { DEFAULT_READ_GRACE_MS, DEFAULT_READ_SURFACE } from '../sync/publish/read-surface-defaults.js';
import { defaultReadPath } from '../sync/publish/snapshot.js';
import type { ArchivePage } from './archive.js';

export interface JobContext {
  domain: string;
  version: string | null;
}

export interface VerifiedBundle {
  sizeBytes: number;
  sha256: string;
  archivePath: string;
  linkExpiresAt: string;
}

export interface ExportRecord {
  job: StaticExportJob;
  context: JobContext;
  bundle: VerifiedBundle;
  pages: ArchivePage[];
  /** Archive paths deleted by retention: their rows get archive_path NULL. */
  removedArchives: string[];
}

export interface Recorder {
  /** Domain and version of a job recorded earlier (for `--job`), or null. */
  lookup(jobId: string): Promise<JobContext | null>;
  /** Upserts the job's status fields; archive fields are kept. */
  recordJob(job: StaticExportJob, context: JobContext): Promise<void>;
  /** The finished export in ONE transaction: job row, page inventory replaced, retention applied. */
  recordExport(rec: ExportRecord): Promise<void>;
}

/** Runs `fn` with a connection to a migrated warehouse. */
export type ConnectionProvider = <T>(fn: (conn: DuckDBConnection) => Promise<T>) => Promise<T>;

/** How long a write waits for a running sync to release the warehouse. */
const WRITER_WAIT_MS = 15 * 60_000;

/**
 * Opens the warehouse file for each write and closes it right after; the export's last write
 * publishes the read path the way sync does (the catalog by default: a full copy would replace
 * the catalog and its files).
 */
export function warehouseRecorder(warehousePath: string, clock: Clock, readPath?: string, surface: Partial<Omit<PublishSettings, 'readPath'>> = {}): Recorder {
  const withWarehouse = (publish: boolean): ConnectionProvider => async (fn) => {
    const lock = await waitForWriterLock(warehousePath, 'docs-etl static-export', clock, WRITER_WAIT_MS);
    try {
      const wh = await openWarehouse(warehousePath);
      try {
        const out = await fn(wh.conn);
        if (publish) {
          await publishRead(wh.conn, wh.path, {
            readPath: readPath ?? defaultReadPath(wh.path), readSurface: surface.readSurface ?? DEFAULT_READ_SURFACE, readGraceMs: surface.readGraceMs ?? DEFAULT_READ_GRACE_MS,
          }, clock.now());
        }
        return out;
      } finally {
        wh.close();
      }
    } finally {
      lock.release();
    }
  };
  const plain = recorderOn(withWarehouse(false), clock);
  return { ...plain, recordExport: recorderOn(withWarehouse(true), clock).recordExport };
}

/** For a process that already holds the warehouse open (e.g. the scheduler): writes on its connection. */
export function recorderOn(withConn: ConnectionProvider, clock: Clock): Recorder {
  return {
    lookup: (jobId) => withConn(async (conn) => {
      const rows = (await conn.runAndReadAll('SELECT domain, version FROM static_export_jobs WHERE job_id = $job_id', { job_id: jobId }))
        .getRowObjectsJS();
      const r = rows[0];
      return r ? { domain: String(r.domain), version: r.version === null ? null : String(r.version) } : null;
    }),
    recordJob: (job, context) => withConn((conn) => upsertJob(conn, job, context, null, clock.now())),
    recordExport: (rec) => withConn((conn) => inTransaction(conn, async () => {
      await upsertJob(conn, rec.job, rec.context, rec.bundle, clock.now());
      await conn.run('DELETE FROM site_pages WHERE job_id = $job_id', { job_id: rec.job.jobId });
      await conn.run(sqlFile('static-export/insert-site-pages.sql'), {
        job_id: rec.job.jobId, domain: rec.context.domain, pages: JSON.stringify(rec.pages),
      });
      for (const removed of rec.removedArchives) {
        await conn.run('UPDATE static_export_jobs SET archive_path = NULL WHERE starts_with(archive_path, $dir)', { dir: `${removed}/` });
      }
    })),
  };
}

async function upsertJob(
  conn: DuckDBConnection, job: StaticExportJob, context: JobContext, bundle: VerifiedBundle | null, now: Date,
): Promise<void> {
  const finished = job.status === 'completed' || job.status === 'failed';
  await conn.run(sqlFile('static-export/upsert-job.sql'), {
    job_id: job.jobId,
    domain: context.domain,
    version: context.version,
    status: job.status,
    progress: job.progress,
    page_count: job.pageCount,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    finished_at: finished ? job.updatedAt : null,
    error: job.status === 'failed' ? (job.error ?? 'failed (no error text)') : null,
    size_bytes: bundle?.sizeBytes ?? null,
    sha256: bundle?.sha256 ?? null,
    archive_path: bundle?.archivePath ?? null,
    bundle_expires_at: bundle?.linkExpiresAt ?? null,
    now: now.toISOString(),
  });
}
