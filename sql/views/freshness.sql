-- Data freshness per project and pipeline: how far the loaded data reaches (head_at: the end of
-- what was read completely), up to where it is settled (settled_to: no re-read is due before it),
-- the last run and the quarantine size. Readers (the report, status) use this view rather than
-- the state tables.
CREATE OR REPLACE VIEW freshness AS
WITH cov AS (
  SELECT project_id, pipeline,
         max(range_to)                                                         AS head_at,
         coalesce(min(range_from) FILTER (WHERE NOT settled), max(range_to))   AS settled_to
  FROM coverage
  GROUP BY project_id, pipeline
), last_run AS (
  SELECT * FROM sync_runs QUALIFY row_number() OVER (PARTITION BY project_id, pipeline ORDER BY started_at DESC) = 1
)
SELECT
  s.project_id,
  s.pipeline,
  c.head_at,
  c.settled_to,
  r.started_at                                                     AS last_run_at,
  r.finished_at                                                    AS last_finished_at,
  r.status                                                         AS last_status,
  r.error                                                          AS last_error,
  (SELECT count(*) FROM quarantine q WHERE q.project_id = s.project_id AND coalesce(q.pipeline, 'assistant_conversations') = s.pipeline) AS quarantined
FROM sync_state s
LEFT JOIN cov c ON c.project_id = s.project_id AND c.pipeline = s.pipeline
LEFT JOIN last_run r ON r.project_id = s.project_id AND r.pipeline = s.pipeline;
