-- A job as last observed. Archive columns are only ever set (never cleared) by a status write;
-- finished_at is the API's updatedAt once the job completed or failed.
INSERT INTO static_export_jobs (job_id, domain, version, status, progress, page_count, created_at, updated_at,
                                finished_at, error, size_bytes, sha256, archive_path, bundle_expires_at, recorded_at)
VALUES ($job_id, $domain, $version, $status, $progress, $page_count, CAST($created_at AS TIMESTAMPTZ),
        CAST($updated_at AS TIMESTAMPTZ), CAST($finished_at AS TIMESTAMPTZ), $error, $size_bytes, $sha256,
        $archive_path, CAST($bundle_expires_at AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ))
ON CONFLICT (job_id) DO UPDATE SET
  domain            = excluded.domain,
  version           = coalesce(excluded.version, static_export_jobs.version),
  status            = excluded.status,
  progress          = excluded.progress,
  page_count        = excluded.page_count,
  created_at        = excluded.created_at,
  updated_at        = excluded.updated_at,
  finished_at       = excluded.finished_at,
  error             = excluded.error,
  size_bytes        = coalesce(excluded.size_bytes, static_export_jobs.size_bytes),
  sha256            = coalesce(excluded.sha256, static_export_jobs.sha256),
  archive_path      = coalesce(excluded.archive_path, static_export_jobs.archive_path),
  bundle_expires_at = coalesce(excluded.bundle_expires_at, static_export_jobs.bundle_expires_at),
  recorded_at       = excluded.recorded_at;
