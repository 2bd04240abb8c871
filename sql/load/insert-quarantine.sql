INSERT INTO quarantine (project_id, run_id, received_at, error, raw)
VALUES ($project_id, $run_id, CAST($now AS TIMESTAMPTZ), $error, CAST($raw AS JSON));
