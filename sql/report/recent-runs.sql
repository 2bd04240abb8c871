-- The latest sync runs of the selected projects (sync_runs).
SELECT project_id, pipeline, status, started_at, finished_at,
       CAST(requests AS DOUBLE) AS requests, CAST(rows_upserted AS DOUBLE) AS rows_upserted,
       CAST(rows_quarantined AS DOUBLE) AS rows_quarantined, error
FROM sync_runs
WHERE CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR)
ORDER BY started_at DESC
LIMIT $limit;
