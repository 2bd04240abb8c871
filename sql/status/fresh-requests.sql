-- Per project and pipeline: the pages its last run read for heads and re-reads (anything but
-- backfill): what a run spends before its backfill, as observed (status/backfill-estimate.ts).
WITH last_run AS (
  SELECT run_id, project_id, pipeline FROM sync_runs
  QUALIFY row_number() OVER (PARTITION BY project_id, pipeline ORDER BY started_at DESC) = 1
)
SELECT r.project_id, r.pipeline, coalesce(sum(w.pages) FILTER (WHERE w.purpose <> 'backfill'), 0) AS pages
FROM last_run r LEFT JOIN sync_windows w ON w.run_id = r.run_id
GROUP BY ALL;
