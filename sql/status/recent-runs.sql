SELECT project_id, pipeline, status, started_at, finished_at, pages, requests, rows_upserted, rows_quarantined, error
FROM sync_runs
ORDER BY started_at DESC
LIMIT $limit;
