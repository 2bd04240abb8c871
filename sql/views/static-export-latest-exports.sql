-- The latest completed and downloaded static export of each domain (by finish time).
CREATE OR REPLACE VIEW latest_static_exports AS
SELECT domain, job_id, version, finished_at, page_count, size_bytes, sha256, archive_path
FROM static_export_jobs
WHERE status = 'completed' AND sha256 IS NOT NULL
QUALIFY row_number() OVER (PARTITION BY domain ORDER BY finished_at DESC NULLS LAST, created_at DESC, job_id DESC) = 1;
