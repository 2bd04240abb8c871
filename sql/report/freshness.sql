-- Data freshness per project and pipeline (view freshness): head, settled point, last run,
-- quarantine size.
SELECT project_id, pipeline, head_at, settled_to, last_run_at, last_finished_at, last_status, last_error,
       CAST(quarantined AS DOUBLE) AS quarantined
FROM freshness
WHERE CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR)
ORDER BY project_id, pipeline;
