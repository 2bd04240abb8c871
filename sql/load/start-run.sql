INSERT INTO sync_runs (run_id, project_id, pipeline, started_at, status)
VALUES ($run_id, $project_id, $pipeline, CAST($now AS TIMESTAMPTZ), 'running');
