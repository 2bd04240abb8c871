-- The lake columns of static_export_jobs, in order (docs/lake.md).
SELECT job_id, domain, version, status, progress, page_count, created_at, updated_at, finished_at,
       error, size_bytes, sha256, archive_path, bundle_expires_at, recorded_at
FROM static_export_jobs
