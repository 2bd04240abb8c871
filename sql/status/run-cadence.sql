-- How often runs start, per project and pipeline: the median gap between the last 10 run starts.
SELECT project_id, pipeline, median(gap_s) AS cadence_s, count(*) AS gaps
FROM (
  SELECT project_id, pipeline, epoch(started_at - lag(started_at) OVER (PARTITION BY project_id, pipeline ORDER BY started_at)) AS gap_s
  FROM (SELECT * FROM sync_runs QUALIFY row_number() OVER (PARTITION BY project_id, pipeline ORDER BY started_at DESC) <= 10)
)
WHERE gap_s IS NOT NULL
GROUP BY ALL;
