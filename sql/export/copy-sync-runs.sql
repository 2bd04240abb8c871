-- sync_runs is small: one file, rewritten whole when any row changed.
COPY (
  SELECT run_id, project_id, pipeline, started_at, finished_at, status, window_from, window_to,
         requests, pages, rows_upserted, rows_quarantined, error
  FROM sync_runs
  ORDER BY started_at, run_id
) TO $file (FORMAT parquet, COMPRESSION zstd);
