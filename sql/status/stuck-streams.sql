-- Streams stuck in one open window: their last $runs finished runs all stopped on the budget and
-- none of them completed a window (a window is fixed until it completes, so the open window is the
-- same one throughout). `since`: when the first of those runs started.
WITH recent AS (
  SELECT project_id, pipeline, run_id, status, started_at
  FROM sync_runs
  WHERE status NOT IN ('running')
  QUALIFY row_number() OVER (PARTITION BY project_id, pipeline ORDER BY started_at DESC) <= $runs
), streak AS (
  SELECT project_id, pipeline, count(*) AS runs, min(started_at) AS since, bool_and(status = 'budget_exhausted') AS all_stopped
  FROM recent GROUP BY ALL
)
SELECT k.project_id, k.pipeline, k.runs, k.since, s.window_purpose, s.window_from, s.window_to
FROM streak k
JOIN sync_state s ON s.project_id = k.project_id AND s.pipeline = k.pipeline
WHERE k.runs = $runs AND k.all_stopped AND s.window_to IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM sync_windows w
    WHERE w.project_id = k.project_id AND w.pipeline = k.pipeline AND w.completed_at >= k.since
  )
ORDER BY k.project_id, k.pipeline;
