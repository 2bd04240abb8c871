-- Every finished run's duration (docs_etl_run_duration_seconds), with its stream's organization.
SELECT r.run_id, r.project_id, r.pipeline, s.organization,
       (epoch_ms(r.finished_at) - epoch_ms(r.started_at)) / 1000.0 AS seconds
FROM sync_runs r JOIN sync_state s USING (project_id, pipeline)
WHERE r.finished_at IS NOT NULL
ORDER BY r.started_at;
