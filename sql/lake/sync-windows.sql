-- The lake columns of sync_windows, in order (docs/lake.md).
SELECT project_id, pipeline, window_id, run_id, purpose, window_from, window_to, completed_at,
       pages, rows, new_rows, changed_rows
FROM sync_windows
