-- The lake columns of sync_runs, in order (docs/lake.md).
SELECT run_id, project_id, pipeline, started_at, finished_at, status, window_from, window_to,
       requests, pages, rows_upserted, rows_quarantined, error
FROM sync_runs
