-- Data freshness per project and pipeline: how far the loaded data reaches (head_at), up to where it
-- is settled (no later re-read is due; NULL until the planner records it), the last run and the
-- quarantine size. Readers (the report, status) use this view rather than the state tables.
CREATE OR REPLACE VIEW freshness AS
SELECT
  s.project_id,
  s.pipeline,
  s.high_water                                                     AS head_at,
  CAST(NULL AS TIMESTAMPTZ)                                        AS settled_to,
  r.started_at                                                     AS last_run_at,
  r.finished_at                                                    AS last_finished_at,
  r.status                                                         AS last_status,
  r.error                                                          AS last_error,
  (SELECT count(*) FROM quarantine q WHERE q.project_id = s.project_id) AS quarantined
FROM sync_state s
LEFT JOIN (
  SELECT * FROM sync_runs QUALIFY row_number() OVER (PARTITION BY project_id, pipeline ORDER BY started_at DESC) = 1
) r ON r.project_id = s.project_id AND r.pipeline = s.pipeline;
