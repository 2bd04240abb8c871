-- Per project and pipeline: checkpoint, last run, quarantine size.
SELECT
  s.project_id, s.pipeline, s.organization,
  s.high_water, s.window_from, s.window_to, s.pages AS window_pages, s.rows AS window_rows,
  r.status AS last_status, r.started_at AS last_started_at, r.finished_at AS last_finished_at, r.error AS last_error,
  (SELECT count(*) FROM quarantine q WHERE q.project_id = s.project_id) AS quarantined,
  (SELECT count(*) FROM conversations c WHERE c.project_id = s.project_id) AS turns
FROM sync_state s
LEFT JOIN (
  SELECT * FROM sync_runs QUALIFY row_number() OVER (PARTITION BY project_id, pipeline ORDER BY started_at DESC) = 1
) r ON r.project_id = s.project_id AND r.pipeline = s.pipeline
ORDER BY s.project_id, s.pipeline;
