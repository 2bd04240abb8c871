-- Per stream: rows merged and records quarantined over all runs, the last success, the last run's
-- deferred windows, and its 429 answers (the counters of docs_etl_*_total, from the warehouse).
WITH runs AS (
  SELECT project_id, pipeline,
         sum(rows_upserted) AS rows_merged, sum(rows_quarantined) AS rows_quarantined,
         max(finished_at) FILTER (WHERE status = 'succeeded') AS last_success,
         arg_max(run_id, started_at) AS last_run_id
  FROM sync_runs GROUP BY project_id, pipeline
), limited AS (
  SELECT project_id, pipeline, sum(requests) AS rate_limited FROM api_responses WHERE code = '429' GROUP BY ALL
)
SELECT s.project_id, s.pipeline, s.organization,
       coalesce(r.rows_merged, 0) AS rows_merged, coalesce(r.rows_quarantined, 0) AS rows_quarantined,
       epoch_ms(r.last_success) AS last_success_ms,
       coalesce(d.deferred, 0) AS deferred,
       coalesce(l.rate_limited, 0) AS rate_limited
FROM sync_state s
LEFT JOIN runs r USING (project_id, pipeline)
LEFT JOIN run_deferrals d ON d.run_id = r.last_run_id
LEFT JOIN limited l USING (project_id, pipeline)
ORDER BY s.project_id, s.pipeline;
